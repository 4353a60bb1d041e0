import { payoutMessages } from './messages-payouts';
import { orderMessagesByLang } from './messages-orders';
import { selling } from './messages-selling';
import { newsletter } from './messages-newsletter';
import { shellMessages } from './messages-shell';
import { inboxMessages } from './messages-inbox';
import { pagesMessages } from './messages-pages';

/** The storefront's own texts, per language; a marketplace language without texts here shows English. */
const en = {
  ...shellMessages.en,
  ...pagesMessages.en,
  nav: { signIn: 'Sign in', signUp: 'Create account', account: 'Account', signOut: 'Sign out', mailbox: 'Dev mailbox', listings: 'Selling', favorites: 'Saved' },
  fields: {
    email: 'Email address',
    password: 'Password',
    newPassword: 'New password',
    firstName: 'First name',
    lastName: 'Last name',
    displayName: 'Public name',
    bio: 'About you (public)',
    phone: 'Phone (private)',
    locale: 'Language for emails',
    localeDefault: 'Shop default',
  },
  signUp: {
    title: 'Create an account',
    passwordHint: '8 to 128 characters. Leave empty to sign in with emailed links instead.',
    submit: 'Create account',
    haveAccount: 'Already have an account?',
  },
  signIn: {
    title: 'Sign in',
    submit: 'Sign in',
    enterEmail: 'Enter your email address.',
    enterPassword: 'Enter your password.',
    orLink: 'Or get a sign-in link by email',
    linkSubmit: 'Email me a link',
    linkSent: 'If there is an account for this address, a sign-in link is on its way. It works once, for 15 minutes.',
    forgot: 'Forgot your password?',
    noAccount: 'New here?',
    continueTitle: 'Finish signing in',
    continueText: 'You followed a sign-in link from your email. Continue to sign in on this device.',
    continue: 'Continue signing in',
    linkUsed: 'This sign-in link has already been used. Each link works once — ask for a new one below.',
    linkExpired: 'This sign-in link has expired (links work for 15 minutes). Ask for a new one below.',
    linkInvalid: 'This sign-in link is not valid. Ask for a new one below.',
    locked: 'Signing in with a password is paused for {wait} after too many wrong attempts. Wait and try again, get a sign-in link by email below, or reset your password.',
    linksPaused: 'Too many emails were asked for. Try again in {wait}.',
    waitMinutes: { one: '1 minute', other: '{n} minutes' },
  },
  signOut: { title: 'Sign out', text: 'Sign out of this device?', submit: 'Sign out' },
  verify: {
    title: 'Confirm your email address',
    done: 'Thank you — your email address is confirmed.',
    toAccount: 'Go to your account',
    expired: 'This confirmation link has expired (links work for 24 hours).',
    invalid: 'This confirmation link is not valid.',
    nextSignedIn: 'Send a new confirmation email from your account.',
    nextSignedOut: 'Sign in, then send a new confirmation email from your account.',
    missing: 'This page confirms an email address from the link we sent. Open the link from your email.',
  },
  reset: {
    title: 'Reset your password',
    requestText: 'Enter your email address and we will send a link to choose a new password.',
    requestSubmit: 'Email me a reset link',
    requested: 'If there is an account for this address, a reset link is on its way. It works for 1 hour.',
    chooseText: 'Choose a new password. You will be signed out everywhere.',
    chooseSubmit: 'Save new password',
    done: 'Your password is changed and you are signed out everywhere. Sign in with your new password.',
    used: 'This reset link has already been used. Ask for a new one below.',
    expired: 'This reset link has expired (links work for 1 hour). Ask for a new one below.',
    invalid: 'This reset link is not valid. Ask for a new one below.',
  },
  account: {
    title: 'Your account',
    verified: 'Confirmed',
    unverified: 'Not confirmed yet',
    resend: 'Send the confirmation email again',
    resent: 'A new confirmation email is on its way.',
    save: 'Save profile',
    saved: 'Saved.',
    welcome: 'Welcome! We sent you an email to confirm your address.',
    signedIn: 'You are signed in.',
  },
  mailbox: {
    title: 'Dev mailbox',
    intro: 'Test mode: the emails this shop sent, newest first. The worker sends them within a second or two of the action — refresh to see new ones.',
    empty: 'No emails yet.',
    filter: 'Only to',
    show: 'Show',
  },
  // the seller's pages and the product page: lib/messages-selling.ts
  ...selling.en,
  // the messages pages: lib/messages-inbox.ts
  ...inboxMessages.en,
  // payout setup and the payout on the seller's order page: lib/messages-payouts.ts
  ...payoutMessages.en,
  // the newsletter sign-up: lib/messages-newsletter.ts
  ...newsletter.en,
  // buying and orders: lib/messages-orders.ts
  orders: orderMessagesByLang.en,
  shop: {
    newest: 'Just in',
    empty: 'Nothing on sale yet.',
    search: 'Search',
    searchLabel: 'Search the shop',
    results: (n: number) => `${n} ${n === 1 ? 'listing' : 'listings'}`,
    none: 'Nothing matches. Try fewer words or filters.',
    more: 'More',
    previous: 'Previous',
    notAPrice: (field: string) => `${field}: enter an amount like 250 or 1 250.50 — “{typed}” is not a number.`,
    sort: 'Sort',
    sorts: { relevance: 'Best match', newest: 'Newest', price_asc: 'Price, low to high', price_desc: 'Price, high to low', popular: 'Most saved' },
    category: 'Category',
    any: 'Any',
    minPrice: 'Min price',
    maxPrice: 'Max price',
    currency: 'Show prices in',
    apply: 'Show',
    save: 'Save',
    saved: 'Saved ♥',
    signInToSave: 'Sign in to save',
    favorites: 'Saved listings',
    noFavorites: 'Nothing saved yet.',
    notOnSale: 'No longer on sale',
    approx: 'approx.',
  },
  common: { send: 'Send', problem: 'Something went wrong. Please try again.' },
};

export type Messages = typeof en;

const sv: Messages = {
  ...shellMessages.sv,
  ...pagesMessages.sv,
  nav: { signIn: 'Logga in', signUp: 'Skapa konto', account: 'Konto', signOut: 'Logga ut', mailbox: 'Utvecklarbrevlåda', listings: 'Sälja', favorites: 'Sparade' },
  fields: {
    email: 'E-postadress',
    password: 'Lösenord',
    newPassword: 'Nytt lösenord',
    firstName: 'Förnamn',
    lastName: 'Efternamn',
    displayName: 'Offentligt namn',
    bio: 'Om dig (offentligt)',
    phone: 'Telefon (privat)',
    locale: 'Språk för mejl',
    localeDefault: 'Butikens standard',
  },
  signUp: {
    title: 'Skapa ett konto',
    passwordHint: '8 till 128 tecken. Lämna tomt för att logga in med länkar via mejl i stället.',
    submit: 'Skapa konto',
    haveAccount: 'Har du redan ett konto?',
  },
  signIn: {
    title: 'Logga in',
    submit: 'Logga in',
    enterEmail: 'Fyll i din e-postadress.',
    enterPassword: 'Fyll i ditt lösenord.',
    orLink: 'Eller få en inloggningslänk via mejl',
    linkSubmit: 'Mejla mig en länk',
    linkSent: 'Om det finns ett konto för adressen är en inloggningslänk på väg. Den fungerar en gång, i 15 minuter.',
    forgot: 'Glömt lösenordet?',
    noAccount: 'Ny här?',
    continueTitle: 'Slutför inloggningen',
    continueText: 'Du följde en inloggningslänk från ditt mejl. Fortsätt för att logga in på den här enheten.',
    continue: 'Fortsätt logga in',
    linkUsed: 'Den här inloggningslänken har redan använts. Varje länk fungerar en gång — be om en ny nedan.',
    linkExpired: 'Den här inloggningslänken har gått ut (länkar fungerar i 15 minuter). Be om en ny nedan.',
    linkInvalid: 'Den här inloggningslänken är inte giltig. Be om en ny nedan.',
    locked: 'Inloggning med lösenord är pausad i {wait} efter för många felaktiga försök. Vänta och försök igen, be om en inloggningslänk via mejl nedan eller återställ lösenordet.',
    linksPaused: 'För många mejl har begärts. Försök igen om {wait}.',
    waitMinutes: { one: '1 minut', other: '{n} minuter' },
  },
  signOut: { title: 'Logga ut', text: 'Logga ut från den här enheten?', submit: 'Logga ut' },
  verify: {
    title: 'Bekräfta din e-postadress',
    done: 'Tack — din e-postadress är bekräftad.',
    toAccount: 'Till ditt konto',
    expired: 'Den här bekräftelselänken har gått ut (länkar fungerar i 24 timmar).',
    invalid: 'Den här bekräftelselänken är inte giltig.',
    nextSignedIn: 'Skicka ett nytt bekräftelsemejl från ditt konto.',
    nextSignedOut: 'Logga in och skicka sedan ett nytt bekräftelsemejl från ditt konto.',
    missing: 'Den här sidan bekräftar en e-postadress via länken vi skickade. Öppna länken i ditt mejl.',
  },
  reset: {
    title: 'Återställ ditt lösenord',
    requestText: 'Ange din e-postadress så skickar vi en länk där du väljer ett nytt lösenord.',
    requestSubmit: 'Mejla mig en återställningslänk',
    requested: 'Om det finns ett konto för adressen är en återställningslänk på väg. Den fungerar i 1 timme.',
    chooseText: 'Välj ett nytt lösenord. Du loggas ut överallt.',
    chooseSubmit: 'Spara nytt lösenord',
    done: 'Ditt lösenord är ändrat och du är utloggad överallt. Logga in med ditt nya lösenord.',
    used: 'Den här återställningslänken har redan använts. Be om en ny nedan.',
    expired: 'Den här återställningslänken har gått ut (länkar fungerar i 1 timme). Be om en ny nedan.',
    invalid: 'Den här återställningslänken är inte giltig. Be om en ny nedan.',
  },
  account: {
    title: 'Ditt konto',
    verified: 'Bekräftad',
    unverified: 'Inte bekräftad än',
    resend: 'Skicka bekräftelsemejlet igen',
    resent: 'Ett nytt bekräftelsemejl är på väg.',
    save: 'Spara profil',
    saved: 'Sparat.',
    welcome: 'Välkommen! Vi har mejlat dig för att bekräfta din adress.',
    signedIn: 'Du är inloggad.',
  },
  mailbox: {
    title: 'Utvecklarbrevlåda',
    intro: 'Testläge: mejlen butiken har skickat, nyaste först. Arbetaren skickar dem inom någon sekund — ladda om för att se nya.',
    empty: 'Inga mejl än.',
    filter: 'Bara till',
    show: 'Visa',
  },
  // the seller's pages and the product page: lib/messages-selling.ts
  ...selling.sv,
  ...inboxMessages.sv,
  ...payoutMessages.sv,
  ...newsletter.sv,
  orders: orderMessagesByLang.sv,
  shop: {
    newest: 'Nytt in',
    empty: 'Inget till salu än.',
    search: 'Sök',
    searchLabel: 'Sök i butiken',
    results: (n: number) => `${n} ${n === 1 ? 'annons' : 'annonser'}`,
    none: 'Inget matchar. Prova färre ord eller filter.',
    more: 'Fler',
    previous: 'Föregående',
    notAPrice: (field: string) => `${field}: ange ett belopp som 250 eller 1 250,50 — ”{typed}” är inte ett tal.`,
    sort: 'Sortera',
    sorts: { relevance: 'Bäst träff', newest: 'Nyast', price_asc: 'Pris, lägst först', price_desc: 'Pris, högst först', popular: 'Mest sparade' },
    category: 'Kategori',
    any: 'Alla',
    minPrice: 'Lägsta pris',
    maxPrice: 'Högsta pris',
    currency: 'Visa priser i',
    apply: 'Visa',
    save: 'Spara',
    saved: 'Sparad ♥',
    signInToSave: 'Logga in för att spara',
    favorites: 'Sparade annonser',
    noFavorites: 'Inget sparat än.',
    notOnSale: 'Inte längre till salu',
    approx: 'ca',
  },
  common: { send: 'Skicka', problem: 'Något gick fel. Försök igen.' },
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends (...args: never[]) => unknown ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** A language with only some texts: English fills the rest, key by key. */
function withFallback<T extends object>(base: T, partial: DeepPartial<T>): T {
  const out = { ...base } as Record<string, unknown>;
  for (const [k, v] of Object.entries(partial)) {
    const b = (base as Record<string, unknown>)[k];
    out[k] = v && typeof v === 'object' && b && typeof b === 'object' ? withFallback(b as object, v as object) : v;
  }
  return out as T;
}

/** German: the pages the German seller notices link to (and the header around them). */
const de = withFallback<Messages>(en, {
  nav: { signIn: 'Anmelden', signUp: 'Konto anlegen', account: 'Konto', signOut: 'Abmelden', mailbox: 'Entwickler-Postfach', listings: 'Verkaufen', favorites: 'Gemerkt' },
  shop: {
    search: 'Suchen',
    searchLabel: 'Im Shop suchen',
    previous: 'Zurück',
    notAPrice: (field: string) => `${field}: gib einen Betrag wie 250 oder 1.250,50 ein — „{typed}“ ist keine Zahl.`,
    currency: 'Preise anzeigen in',
    apply: 'Anzeigen',
    save: 'Merken',
    saved: 'Gemerkt ♥',
    signInToSave: 'Zum Merken anmelden',
    notOnSale: 'Nicht mehr im Verkauf',
    approx: 'ca.',
  },
  common: { send: 'Senden', problem: 'Etwas ist schiefgelaufen. Bitte versuche es noch einmal.' },
  ...selling.de,
  ...inboxMessages.de,
  ...payoutMessages.de,
  ...pagesMessages.de,
  ...newsletter.de,
  orders: orderMessagesByLang.de,
});

const ALL: Record<string, Messages> = { en, sv, de };

export function messages(lang: string): Messages {
  return ALL[lang] ?? ALL[lang.split('-')[0]!] ?? en;
}
