/**
 * The page editor's fields per block type, as the API's page schema has them (packages/domain
 * pages.schema.ts `BLOCK_INPUTS`): one fieldset per block. Plain values are their own inputs; lists
 * of ids are comma-separated; nested lists (buttons, links, tiles, items, questions, a link, a rule)
 * are JSON in the API's shape. The API checks everything: its problems come back at their fields.
 * Written out for the labels and hints; blocks.test.ts fails when the fields differ from the API's.
 */
export type BlockFieldKind = 'line' | 'text' | 'select' | 'check' | 'number' | 'ids' | 'json';
export interface BlockField {
  name: string;
  label: string;
  kind: BlockFieldKind;
  options?: string[];
  hint?: string;
}

const heading: BlockField = { name: 'heading', label: 'Heading', kind: 'line' };
const eyebrow: BlockField = { name: 'eyebrow', label: 'Eyebrow', kind: 'line' };
const text: BlockField = { name: 'text', label: 'Text', kind: 'text' };
const image: BlockField = { name: 'image_id', label: 'Image id (media library)', kind: 'line' };
const linkJson = (name: string, label: string, many: boolean): BlockField => ({
  name,
  label,
  kind: 'json',
  hint: many ? 'JSON: [{"label": "…", "href": "/…", "style": "primary"}]' : 'JSON: {"label": "…", "href": "/…"}',
});

export const BLOCK_FIELDS: Record<string, BlockField[]> = {
  hero: [heading, eyebrow, text, linkJson('buttons', 'Buttons', true), image, { name: 'visual', label: 'Visual', kind: 'select', options: ['image', 'listing', 'newest', 'none'] }, { name: 'listing_id', label: 'Listing id', kind: 'line' }, { name: 'search', label: 'Search box', kind: 'check' }],
  links: [linkJson('links', 'Links', true)],
  listing_grid: [
    heading,
    linkJson('link', 'Link', false),
    { name: 'limit', label: 'How many listings', kind: 'number', hint: '1 to 24' },
    { name: 'source', label: 'Listings', kind: 'select', options: ['picked', 'rule'] },
    { name: 'listing_ids', label: 'Listing ids (picked)', kind: 'ids', hint: 'Comma-separated' },
    { name: 'rule', label: 'Rule', kind: 'json', hint: 'JSON: {"category_id": "…", "sort": "newest", "term_ids": []}' },
  ],
  banner: [heading, text, linkJson('link', 'Link', false), image, { name: 'phone_image_id', label: 'Phone image id', kind: 'line' }],
  category_tiles: [heading, { name: 'tiles', label: 'Tiles', kind: 'json', hint: 'JSON: [{"category_id": "…", "image_id": "…", "label": "…"}]' }],
  image_text: [heading, eyebrow, text, linkJson('link', 'Link', false), image, { name: 'image_side', label: 'Image side', kind: 'select', options: ['left', 'right'] }],
  featured_listing: [heading, text, { name: 'listing_id', label: 'Listing id', kind: 'line' }, { name: 'when_sold', label: 'When sold', kind: 'select', options: ['hide', 'show'] }],
  cta: [heading, text, linkJson('buttons', 'Buttons', true), { name: 'tone', label: 'Tone', kind: 'select', options: ['brand', 'light', 'dark'] }],
  newsletter: [heading, text, { name: 'button_label', label: 'Button label', kind: 'line' }],
  promises: [{ name: 'items', label: 'Promises', kind: 'json', hint: 'JSON: [{"title": "…", "text": "…"}]' }],
  showroom: [heading, text, { name: 'location_id', label: 'Site id', kind: 'line' }],
  text: [{ name: 'body', label: 'Text (Markdown)', kind: 'text' }],
  faq: [heading, { name: 'questions', label: 'Questions', kind: 'json', hint: 'JSON: [{"question": "…", "answer": "…"}]' }],
};

export const BLOCK_TYPES = Object.keys(BLOCK_FIELDS);

/** A block's value as the form shows it (JSON pretty-printed, id lists comma-separated). */
export function shown(field: BlockField, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  if (field.kind === 'ids') return Array.isArray(value) ? value.join(', ') : String(value);
  if (field.kind === 'check') return value === true ? 'on' : '';
  return String(value);
}

/**
 * The typed value back (what the API takes); an empty field is left out. JSON that does not parse
 * is a problem of the form's own, at its field.
 */
export function typed(field: BlockField, raw: string): { value?: unknown; error?: string } {
  if (field.kind === 'check') return raw === 'on' ? { value: true } : {};
  if (raw === '') return {};
  if (field.kind === 'number') return { value: /^-?\d+$/.test(raw) ? Number(raw) : raw };
  if (field.kind === 'ids')
    return {
      value: raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (field.kind === 'json') {
    try {
      return { value: JSON.parse(raw) };
    } catch {
      return { error: `Must be JSON (${field.hint?.replace(/^JSON: /, '') ?? 'as the API shows it'}).` };
    }
  }
  return { value: raw };
}
