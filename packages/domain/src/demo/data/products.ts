import type { DrawingKind } from '../demo-photos.js';
import type { VariantKey } from './materials.js';

/**
 * What the demo shop sells: product lines in every category of the demo marketplace. Each line
 * becomes a listing per variant ("Stool 60, birch", "Stool 60, red"), written in the seller's
 * language (English or Swedish), priced within its range in the seller's currency (SEK ranges;
 * euro prices follow at the demo rate), with its maker as the brand term and its facts as attributes.
 */

export interface ProductLine {
  /** category slug of the demo marketplace (a top-level one for pieces that fit no sub-category) */
  category: string;
  drawing: DrawingKind;
  /** brand term slug */
  brand: string;
  title: { en: string; sv: string };
  about: { en: string; sv: string };
  designer?: string;
  year?: number;
  /** width, depth, height in cm */
  size: [number, number, number];
  /** shipping size of the marketplace's shipping table (set by the team before the listing goes on sale) */
  shipping: 'small' | 'large';
  /** price range in SEK (whole kronor) */
  price: [number, number];
  variants: VariantKey[];
}

type Line = ProductLine;
const chairs: Line[] = [
  { category: 'chairs', drawing: 'stool', brand: 'artek', title: { en: 'Stool 60', sv: 'Pall 60' }, about: { en: 'The three-legged stool with bent birch legs that stacks in a spiral.', sv: 'Den trebenta pallen med böjda björkben som staplas i en spiral.' }, designer: 'Alvar Aalto', year: 1933, size: [38, 38, 44], shipping: 'small', price: [900, 2400], variants: ['birch', 'black', 'red', 'yellow'] },
  { category: 'chairs', drawing: 'chair', brand: 'fritz-hansen', title: { en: 'Series 7 chair', sv: 'Sjuan-stol' }, about: { en: 'Pressed-veneer shell on a chrome-plated steel frame; comfortable for long dinners.', sv: 'Skal i formpressat faner på förkromat stålstativ; bekväm även vid långa middagar.' }, designer: 'Arne Jacobsen', year: 1955, size: [50, 52, 78], shipping: 'small', price: [1200, 3800], variants: ['ash', 'white', 'walnut', 'red'] },
  { category: 'chairs', drawing: 'armchair', brand: 'gubi', title: { en: 'Beetle lounge chair', sv: 'Beetle loungefåtölj' }, about: { en: 'A deep, fully upholstered lounge chair with a shell shaped like a beetle’s wings.', sv: 'En djup, helklädd loungefåtölj med ett skal format som en skalbagges vingar.' }, designer: 'GamFratesi', year: 2013, size: [88, 80, 78], shipping: 'large', price: [9000, 18000], variants: ['rust', 'wool', 'velvet'] },
  { category: 'chairs', drawing: 'armchair', brand: 'swedese', title: { en: 'Lamino easy chair', sv: 'Lamino fåtölj' }, about: { en: 'Laminated wood frame with a sheepskin-friendly seat; a Swedish classic.', sv: 'Stomme i laminerat trä och en sits som passar fårskinn; en svensk klassiker.' }, designer: 'Yngve Ekström', year: 1956, size: [72, 76, 74], shipping: 'large', price: [8000, 16000], variants: ['leather', 'linen', 'wool'] },
  { category: 'chairs', drawing: 'chair', brand: 'ekstrom-mobler', title: { en: 'Spindle-back kitchen chair', sv: 'Pinnstol' }, about: { en: 'Solid wood chair with a spindle back, reglued and oiled.', sv: 'Stol i massivt trä med pinnrygg, omlimmad och oljad.' }, size: [44, 48, 88], shipping: 'small', price: [450, 1500], variants: ['oak', 'birch', 'green', 'white'] },
  { category: 'chairs', drawing: 'armchair', brand: 'dux', title: { en: 'Pernilla lounge chair', sv: 'Pernilla vilstol' }, about: { en: 'Bent beech frame with woven webbing and a leather cushion.', sv: 'Stomme i böjd bok med vävd gjord och läderdyna.' }, designer: 'Bruno Mathsson', year: 1944, size: [68, 86, 85], shipping: 'large', price: [7000, 15000], variants: ['leather', 'linen', 'rust'] },
  { category: 'chairs', drawing: 'chair', brand: 'anonymous', title: { en: 'Bentwood café chair', sv: 'Kafféstol i böjträ' }, about: { en: 'A bentwood chair from a Stockholm café, sturdy and light.', sv: 'En böjträstol från ett kafé i Stockholm, stadig och lätt.' }, size: [42, 50, 86], shipping: 'small', price: [350, 1100], variants: ['walnut', 'black', 'teak'] },
];

const tables: Line[] = [
  { category: 'tables', drawing: 'dining-table', brand: 'artek', title: { en: 'Aalto table 90A', sv: 'Aalto bord 90A' }, about: { en: 'Rectangular dining table with L-legs in solid birch; seats six.', sv: 'Rektangulärt matbord med L-ben i massiv björk; sex sittplatser.' }, designer: 'Alvar Aalto', year: 1933, size: [150, 75, 72], shipping: 'large', price: [6000, 14000], variants: ['birch', 'white', 'black'] },
  { category: 'tables', drawing: 'dining-table', brand: 'fritz-hansen', title: { en: 'Superellipse dining table', sv: 'Superellipsbord' }, about: { en: 'The super-elliptic top makes room for one more at the table, on self-clamping legs.', sv: 'Den superelliptiska skivan ger plats åt en till runt bordet, på självspännande ben.' }, designer: 'Piet Hein & Bruno Mathsson', year: 1968, size: [180, 120, 72], shipping: 'large', price: [12000, 26000], variants: ['white', 'oak', 'walnut'] },
  { category: 'tables', drawing: 'coffee-table', brand: 'anonymous', title: { en: 'Oval coffee table, 1960s', sv: 'Ovalt soffbord, 1960-tal' }, about: { en: 'Oval coffee table from the sixties in solid wood, top refinished.', sv: 'Ovalt soffbord från sextiotalet i massivt trä, skivan nyslipad.' }, year: 1964, size: [130, 60, 50], shipping: 'large', price: [1200, 3500], variants: ['teak', 'walnut', 'oak'] },
  { category: 'tables', drawing: 'coffee-table', brand: 'svenskt-tenn', title: { en: 'Round tea table', sv: 'Runt tebord' }, about: { en: 'Round tea table with a raised edge and slender legs.', sv: 'Runt tebord med upphöjd kant och smala ben.' }, designer: 'Josef Frank', size: [65, 65, 52], shipping: 'small', price: [9000, 19000], variants: ['brass', 'copper', 'walnut'] },
  { category: 'tables', drawing: 'dining-table', brand: 'ekstrom-mobler', title: { en: 'Extendable dining table', sv: 'Utdragbart matbord' }, about: { en: 'Solid wood table with two leaves stored under the top; 160 to 240 cm.', sv: 'Bord i massivt trä med två iläggsskivor under skivan; 160 till 240 cm.' }, size: [160, 90, 73], shipping: 'large', price: [4000, 9500], variants: ['oak', 'walnut', 'birch'] },
  { category: 'tables', drawing: 'dining-table', brand: 'muuto', title: { en: '70/70 table', sv: '70/70 bord' }, about: { en: 'A compact square table for two, with a linoleum top.', sv: 'Ett kompakt kvadratiskt bord för två, med skiva i linoleum.' }, designer: 'TAF Studio', year: 2014, size: [70, 70, 73], shipping: 'large', price: [2500, 5000], variants: ['oak', 'black', 'green'] },
  { category: 'tables', drawing: 'dining-table', brand: 'hay', title: { en: 'Copenhague desk', sv: 'Copenhague skrivbord' }, about: { en: 'A desk made for the university in Copenhagen, with a cable tray under the top.', sv: 'Ett skrivbord gjort för universitetet i Köpenhamn, med kabelränna under skivan.' }, designer: 'Ronan & Erwan Bouroullec', year: 2013, size: [128, 64, 74], shipping: 'large', price: [3000, 6500], variants: ['oak', 'white', 'black'] },
];

const ceilingLamps: Line[] = [
  { category: 'ceiling-lamps', drawing: 'layered-pendant', brand: 'louis-poulsen', title: { en: 'PH 5 pendant', sv: 'PH 5 taklampa' }, about: { en: 'Glare-free light from layered shades; rewired with a new cord and ceiling cup.', sv: 'Bländfritt ljus från skärmar i flera lager; ny sladd och takkopp.' }, designer: 'Poul Henningsen', year: 1958, size: [50, 50, 27], shipping: 'small', price: [3500, 8500], variants: ['white', 'red', 'blue', 'copper'] },
  { category: 'ceiling-lamps', drawing: 'pendant', brand: 'artek', title: { en: 'Golden Bell pendant A330S', sv: 'Golden Bell taklampa A330S' }, about: { en: 'A bell-shaped pendant with a ring of small openings near the top.', sv: 'En klockformad taklampa med en ring av små hål upptill.' }, designer: 'Alvar Aalto', year: 1937, size: [30, 30, 26], shipping: 'small', price: [3000, 7000], variants: ['brass', 'white', 'black'] },
  { category: 'ceiling-lamps', drawing: 'layered-pendant', brand: 'le-klint', title: { en: 'Pleated pendant', sv: 'Plisserad taklampa' }, about: { en: 'Hand-folded pleated shade that throws a soft, even light.', sv: 'Handvikt plisserad skärm som ger ett mjukt, jämnt ljus.' }, size: [45, 45, 40], shipping: 'small', price: [900, 2600], variants: ['paper', 'white', 'birch'] },
  { category: 'ceiling-lamps', drawing: 'globe-pendant', brand: 'anonymous', title: { en: 'Opal glass globe pendant', sv: 'Glob i opalglas' }, about: { en: 'Mouth-blown opal globe on a brass gallery; lovely above a dining table.', sv: 'Munblåst opalglob med mässingsgalleri; fin över ett matbord.' }, size: [30, 30, 34], shipping: 'small', price: [600, 1800], variants: ['opal', 'brass', 'chrome'] },
  { category: 'ceiling-lamps', drawing: 'pendant', brand: 'gubi', title: { en: 'Semi pendant', sv: 'Semi taklampa' }, about: { en: 'A quarter-circle shade in spun metal that hides the bulb.', sv: 'En skärm av kvartscirklar i drevad metall som döljer glödlampan.' }, designer: 'Bonderup & Thorup', year: 1968, size: [47, 47, 27], shipping: 'small', price: [2500, 5200], variants: ['black', 'white', 'brass'] },
  { category: 'ceiling-lamps', drawing: 'pendant', brand: 'muuto', title: { en: 'Unfold pendant', sv: 'Unfold taklampa' }, about: { en: 'Soft silicone shade that folds flat for moving.', sv: 'Mjuk skärm i silikon som kan vikas platt vid flytt.' }, designer: 'Form Us With Love', year: 2010, size: [36, 36, 25], shipping: 'small', price: [700, 1600], variants: ['green', 'blue', 'white'] },
  { category: 'ceiling-lamps', drawing: 'pendant', brand: 'atelje-lyktan', title: { en: 'Bumling pendant', sv: 'Bumling taklampa' }, about: { en: 'The heavy Åhus pendant with a broad dome shade.', sv: 'Den tunga taklampan från Åhus med bred kupolskärm.' }, designer: 'Anders Pehrson', year: 1968, size: [60, 60, 33], shipping: 'small', price: [3000, 7500], variants: ['brass', 'red', 'white', 'yellow'] },
];

const tableLamps: Line[] = [
  { category: 'table-lamps', drawing: 'mushroom-lamp', brand: 'louis-poulsen', title: { en: 'Panthella table lamp', sv: 'Panthella bordslampa' }, about: { en: 'A mushroom-shaped lamp whose trumpet base widens into the shade.', sv: 'En svampformad lampa där den trumpetformade foten vidgas mot skärmen.' }, designer: 'Verner Panton', year: 1971, size: [50, 50, 58], shipping: 'small', price: [3500, 8000], variants: ['white', 'chrome', 'orange'] },
  { category: 'table-lamps', drawing: 'table-lamp', brand: 'svenskt-tenn', title: { en: 'Table lamp with linen shade', sv: 'Bordslampa med linneskärm' }, about: { en: 'Turned metal base with a cream linen shade.', sv: 'Svarvad metallfot med krämfärgad linneskärm.' }, designer: 'Josef Frank', size: [30, 30, 60], shipping: 'small', price: [4000, 9000], variants: ['brass', 'copper', 'chrome'] },
  { category: 'table-lamps', drawing: 'table-lamp', brand: 'gubi', title: { en: 'Bestlite BL2 table lamp', sv: 'Bestlite BL2 bordslampa' }, about: { en: 'Bauhaus-era table lamp with a tilting shade.', sv: 'Bordslampa från Bauhaustiden med vinklingsbar skärm.' }, designer: 'Robert Dudley Best', year: 1930, size: [25, 25, 50], shipping: 'small', price: [2500, 6000], variants: ['black', 'brass', 'chrome'] },
  { category: 'table-lamps', drawing: 'table-lamp', brand: 'le-klint', title: { en: 'Pleated table lamp', sv: 'Plisserad bordslampa' }, about: { en: 'Hand-folded shade on a slim wooden base.', sv: 'Handvikt skärm på en smal träfot.' }, size: [33, 33, 55], shipping: 'small', price: [1200, 3200], variants: ['oak', 'walnut', 'paper'] },
  { category: 'table-lamps', drawing: 'mushroom-lamp', brand: 'hay', title: { en: 'Matin table lamp', sv: 'Matin bordslampa' }, about: { en: 'A pleated fabric shade on a slender base, like morning light.', sv: 'En plisserad tygskärm på en smal fot, som morgonljus.' }, designer: 'Inge Sofie Hansen', year: 2016, size: [30, 30, 38], shipping: 'small', price: [700, 1500], variants: ['white', 'yellow', 'red'] },
  { category: 'table-lamps', drawing: 'mushroom-lamp', brand: 'anonymous', title: { en: '1970s mushroom lamp', sv: 'Svamplampa från 1970-talet' }, about: { en: 'Glossy plastic mushroom lamp, a true seventies piece.', sv: 'Blank svamplampa i plast, ett riktigt sjuttiotalsfynd.' }, year: 1974, size: [32, 32, 36], shipping: 'small', price: [400, 1200], variants: ['orange', 'white', 'yellow', 'green'] },
];

const furniture: Line[] = [
  { category: 'furniture', drawing: 'sofa', brand: 'svenskt-tenn', title: { en: 'Three-seat sofa', sv: 'Tresitssoffa' }, about: { en: 'Deep three-seat sofa with loose cushions, newly upholstered.', sv: 'Djup tresitssoffa med lösa dynor, nyklädd.' }, designer: 'Josef Frank', size: [210, 90, 80], shipping: 'large', price: [15000, 32000], variants: ['linen', 'velvet', 'wool'] },
  { category: 'furniture', drawing: 'sofa', brand: 'hay', title: { en: 'Mags sofa', sv: 'Mags soffa' }, about: { en: 'A low modular sofa; the covers come off for washing.', sv: 'En låg modulsoffa; klädseln kan tas av och tvättas.' }, designer: 'Hee Welling', year: 2012, size: [228, 95, 67], shipping: 'large', price: [9000, 18000], variants: ['wool', 'rust', 'linen'] },
  { category: 'furniture', drawing: 'sideboard', brand: 'anonymous', title: { en: 'Sideboard with sliding doors', sv: 'Sideboard med skjutdörrar' }, about: { en: 'Sixties sideboard with sliding doors and adjustable shelves.', sv: 'Sideboard från sextiotalet med skjutdörrar och ställbara hyllor.' }, year: 1962, size: [180, 45, 78], shipping: 'large', price: [3500, 9000], variants: ['teak', 'walnut', 'oak'] },
  { category: 'furniture', drawing: 'sideboard', brand: 'muuto', title: { en: 'Enfold sideboard', sv: 'Enfold sideboard' }, about: { en: 'Tall sideboard with doors that fold around the corners.', sv: 'Hög sideboard med dörrar som viks runt hörnen.' }, size: [125, 45, 75], shipping: 'large', price: [5000, 11000], variants: ['white', 'black', 'oak'] },
  { category: 'furniture', drawing: 'shelf', brand: 'string', title: { en: 'String shelving', sv: 'String hylla' }, about: { en: 'The Swedish wall shelf on ladder panels; complete with all fittings.', sv: 'Den svenska vägghyllan på gavlar; komplett med alla beslag.' }, designer: 'Nisse Strinning', year: 1949, size: [78, 30, 200], shipping: 'small', price: [1500, 4500], variants: ['white', 'oak', 'walnut', 'black'] },
  { category: 'furniture', drawing: 'shelf', brand: 'ekstrom-mobler', title: { en: 'Open bookcase', sv: 'Öppen bokhylla' }, about: { en: 'Solid wood bookcase with five shelves; sturdy enough for art books.', sv: 'Bokhylla i massivt trä med fem hyllplan; klarar tunga konstböcker.' }, size: [90, 32, 190], shipping: 'large', price: [1800, 5000], variants: ['oak', 'birch', 'white'] },
];

const lighting: Line[] = [
  { category: 'lighting', drawing: 'floor-lamp', brand: 'le-klint', title: { en: 'Pleated floor lamp', sv: 'Plisserad golvlampa' }, about: { en: 'Tall floor lamp with a hand-folded shade; perfect beside a reading chair.', sv: 'Hög golvlampa med handvikt skärm; perfekt vid en läsfåtölj.' }, size: [45, 45, 140], shipping: 'large', price: [2500, 6000], variants: ['oak', 'walnut', 'black'] },
  { category: 'lighting', drawing: 'floor-lamp', brand: 'gubi', title: { en: 'Bestlite BL3 floor lamp', sv: 'Bestlite BL3 golvlampa' }, about: { en: 'Adjustable floor lamp on a heavy round base.', sv: 'Ställbar golvlampa på en tung rund fot.' }, designer: 'Robert Dudley Best', year: 1930, size: [40, 40, 130], shipping: 'large', price: [5000, 11000], variants: ['brass', 'black', 'chrome'] },
  { category: 'lighting', drawing: 'floor-lamp', brand: 'anonymous', title: { en: 'Arc floor lamp', sv: 'Båglampa' }, about: { en: 'A sweeping arc lamp that lights a table from the side of the room.', sv: 'En svepande båglampa som lyser upp ett bord från rummets sida.' }, size: [120, 40, 190], shipping: 'large', price: [1500, 4000], variants: ['brass', 'chrome', 'black'] },
  { category: 'lighting', drawing: 'wall-lamp', brand: 'louis-poulsen', title: { en: 'AJ wall lamp', sv: 'AJ vägglampa' }, about: { en: 'The asymmetric shade tilts to point the light where you need it.', sv: 'Den asymmetriska skärmen vinklas så att ljuset hamnar där du behöver det.' }, designer: 'Arne Jacobsen', year: 1960, size: [18, 32, 18], shipping: 'small', price: [2800, 6000], variants: ['black', 'white', 'green'] },
  { category: 'lighting', drawing: 'wall-lamp', brand: 'atelje-lyktan', title: { en: 'Bumling wall lamp', sv: 'Bumling vägglampa' }, about: { en: 'Wall version of the Åhus classic, with a swivel arm.', sv: 'Vägglampan av Åhusklassikern, med vridbar arm.' }, designer: 'Anders Pehrson', year: 1968, size: [40, 45, 30], shipping: 'small', price: [1800, 4200], variants: ['brass', 'red', 'white'] },
  { category: 'lighting', drawing: 'wall-lamp', brand: 'anonymous', title: { en: 'Industrial wall lamp', sv: 'Industrivägglampa' }, about: { en: 'Enamelled workshop lamp on a long arm, rewired for the home.', sv: 'Emaljerad verkstadslampa på lång arm, omkopplad för hemmabruk.' }, size: [25, 60, 30], shipping: 'small', price: [500, 1600], variants: ['green', 'black', 'white', 'blue'] },
];

/** Dealt in this order, one category after another, so even a short demo (tests) has every category. */
export const PRODUCT_LINES: ProductLine[] = Array.from({ length: Math.max(chairs.length, tables.length, ceilingLamps.length, tableLamps.length, furniture.length, lighting.length) }, (_, i) =>
  [chairs[i], tables[i], ceilingLamps[i], tableLamps[i], furniture[i], lighting[i]].filter((l): l is ProductLine => l !== undefined),
).flat();
