import type { consoleCaller } from '@hm/domain/console';
import { DomainError } from '@hm/domain/errors';

export type Caller = ReturnType<typeof consoleCaller>;
type Flags = Record<string, string | undefined>;
type Input<K extends keyof Caller, A extends string> = Caller[K] extends Record<A, (input: infer I) => unknown> ? I : never;

interface Command<K extends keyof Caller = keyof Caller, A extends string = string> {
  usage: string;
  flags: string[];
  /** the console router input, built from flags and files (validated by the router) */
  input(flags: Flags, readJson: (flag: string) => unknown): Record<string, unknown>;
  call(caller: Caller, input: Input<K, A>): Promise<unknown>;
}

/** `SEK,EUR` → ['SEK', 'EUR'] */
const list = (v: string | undefined) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/** `SEK=11.52,USD=1.05` → { SEK: 11.52, USD: 1.05 } */
function rates(v: string | undefined): Record<string, number> | undefined {
  if (v === undefined) return undefined;
  return Object.fromEntries(
    v.split(',').map((pair) => {
      const [code, value] = pair.split('=');
      const n = Number(value);
      if (!code || value === undefined || value.trim() === '' || !Number.isFinite(n)) {
        throw new DomainError('validation_failed', `--rates: "${pair}" is not CODE=NUMBER.`, {
          errors: [{ location: 'flag.rates', message: 'Expected CODE=NUMBER pairs separated by commas.', value: pair }],
        });
      }
      return [code.trim(), n];
    }),
  );
}

/** A number flag, or a problem naming the flag. */
function num(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new DomainError('validation_failed', `--${flag}: "${v}" is not a number.`, { errors: [{ location: `flag.${flag}`, message: 'Must be a number.', value: v }] });
  return n;
}

const int = (v: string | undefined, flag: string) => {
  const n = num(v, flag);
  if (n !== undefined && !Number.isInteger(n)) throw new DomainError('validation_failed', `--${flag}: "${v}" is not a whole number.`, { errors: [{ location: `flag.${flag}`, message: 'Must be a whole number (minor units).', value: v }] });
  return n;
};

/** A JSON flag (e.g. a price schedule). */
function json(v: string | undefined, flag: string): unknown {
  if (v === undefined) return undefined;
  try {
    return JSON.parse(v);
  } catch (e) {
    throw new DomainError('validation_failed', `--${flag} is not valid JSON: ${(e as Error).message}`, { errors: [{ location: `flag.${flag}`, message: 'Must be JSON.', value: v }] });
  }
}

function command<K extends keyof Caller, A extends string>(c: Command<K, A>): Command {
  return c as unknown as Command;
}

/** Every console command: flags map onto the console router's input (validated there, errors as problems). */
export const COMMANDS: Record<string, Command> = {
  'marketplace create': command<'marketplace', 'create'>({
    usage: '--name N --slug S --currencies SEK,EUR --locales en,sv --storefront-url URL',
    flags: ['name', 'slug', 'currencies', 'locales', 'storefront-url'],
    input: (f) => ({ name: f.name, slug: f.slug, currencies: list(f.currencies), locales: list(f.locales), storefront_url: f['storefront-url'] }),
    call: (c, i) => c.marketplace.create(i),
  }),
  'marketplace update': command<'marketplace', 'update'>({
    usage: '--marketplace S --file settings.json',
    flags: ['marketplace', 'file'],
    input: (f, read) => ({ marketplace: f.marketplace, settings: read('file') }),
    call: (c, i) => c.marketplace.update(i),
  }),
  'marketplace get': command<'marketplace', 'get'>({
    usage: '--marketplace S',
    flags: ['marketplace'],
    input: (f) => ({ marketplace: f.marketplace }),
    call: (c, i) => c.marketplace.get(i),
  }),
  'marketplace list': command<'marketplace', 'list'>({ usage: '', flags: [], input: () => ({}), call: (c, i) => c.marketplace.list(i) }),
  'keys create': command<'keys', 'create'>({
    usage: '--marketplace S --kind secret|publishable',
    flags: ['marketplace', 'kind'],
    input: (f) => ({ marketplace: f.marketplace, kind: f.kind }),
    call: (c, i) => c.keys.create(i),
  }),
  'keys list': command<'keys', 'list'>({
    usage: '--marketplace S',
    flags: ['marketplace'],
    input: (f) => ({ marketplace: f.marketplace }),
    call: (c, i) => c.keys.list(i),
  }),
  'keys revoke': command<'keys', 'revoke'>({ usage: '--key KEY_OR_ID', flags: ['key'], input: (f) => ({ key: f.key }), call: (c, i) => c.keys.revoke(i) }),
  'categories import': command<'categories', 'import'>({
    usage: '--marketplace S --file categories.json',
    flags: ['marketplace', 'file'],
    input: (f, read) => ({ marketplace: f.marketplace, items: read('file') }),
    call: (c, i) => c.categories.import(i),
  }),
  'terms import': command<'terms', 'import'>({
    usage: '--marketplace S --file terms.json',
    flags: ['marketplace', 'file'],
    input: (f, read) => ({ marketplace: f.marketplace, items: read('file') }),
    call: (c, i) => c.terms.import(i),
  }),
  'sites create': command<'sites', 'create'>({
    usage: '--marketplace S --file site.json',
    flags: ['marketplace', 'file'],
    input: (f, read) => ({ marketplace: f.marketplace, site: read('file') }),
    call: (c, i) => c.sites.create(i),
  }),
  'rates set': command<'rates', 'set'>({
    usage: '--marketplace S --date YYYY-MM-DD --base EUR --rates SEK=11.52,USD=1.05',
    flags: ['marketplace', 'date', 'base', 'rates'],
    input: (f) => ({ marketplace: f.marketplace, date: f.date, base: f.base, rates: rates(f.rates) }),
    call: (c, i) => c.rates.set(i),
  }),
  'listings get': command<'listings', 'get'>({ usage: '--id LISTING_ID', flags: ['id'], input: (f) => ({ id: f.id }), call: (c, i) => c.listings.get(i) }),
  'listings approve': command<'listings', 'approve'>({ usage: '--id LISTING_ID', flags: ['id'], input: (f) => ({ id: f.id }), call: (c, i) => c.listings.approve(i) }),
  'listings deny': command<'listings', 'deny'>({
    usage: '--id LISTING_ID --note "why"',
    flags: ['id', 'note'],
    input: (f) => ({ id: f.id, note: f.note }),
    call: (c, i) => c.listings.deny(i),
  }),
  'listings offer': command<'listings', 'offer'>({
    usage: '--id LISTING_ID --amount 12000 --currency SEK --note "…" [--schedule \'[{"months":2,"amount":9000}]\']',
    flags: ['id', 'amount', 'currency', 'note', 'schedule'],
    input: (f) => ({ id: f.id, amount: int(f.amount, 'amount'), currency: f.currency, note: f.note, schedule: json(f.schedule, 'schedule') }),
    call: (c, i) => c.listings.offer(i),
  }),
  'listings set-shipping-size': command<'listings', 'setShippingSize'>({
    usage: '--id LISTING_ID --size KEY (empty for none)',
    flags: ['id', 'size'],
    input: (f) => ({ id: f.id, size: f.size }),
    call: (c, i) => c.listings.setShippingSize(i),
  }),
  'listings set-commission': command<'listings', 'setCommission'>({
    usage: '--id LISTING_ID --percent 12.5 (or "default")',
    flags: ['id', 'percent'],
    input: (f) => ({ id: f.id, percent: f.percent === 'default' ? null : num(f.percent, 'percent') }),
    call: (c, i) => c.listings.setCommission(i),
  }),
  'listings custody': command<'listings', 'custody'>({
    usage: '--id LISTING_ID --custody collecting|stored|seller [--site SITE_ID]',
    flags: ['id', 'custody', 'site'],
    input: (f) => ({ id: f.id, custody: f.custody, site: f.site }),
    call: (c, i) => c.listings.custody(i),
  }),
  'users create': command<'users', 'create'>({
    usage: '--marketplace S --email E [--first-name F] [--last-name L] [--display-name D] [--phone P] [--locale sv]',
    flags: ['marketplace', 'email', 'first-name', 'last-name', 'display-name', 'phone', 'locale'],
    input: (f) => ({
      marketplace: f.marketplace,
      email: f.email,
      first_name: f['first-name'],
      last_name: f['last-name'],
      display_name: f['display-name'],
      phone: f.phone,
      locale: f.locale,
    }),
    call: (c, i) => c.users.create(i),
  }),
  'users block': command<'users', 'block'>({
    usage: '--marketplace S --email E',
    flags: ['marketplace', 'email'],
    input: (f) => ({ marketplace: f.marketplace, email: f.email }),
    call: (c, i) => c.users.block(i),
  }),
  'users unblock': command<'users', 'unblock'>({
    usage: '--marketplace S --email E',
    flags: ['marketplace', 'email'],
    input: (f) => ({ marketplace: f.marketplace, email: f.email }),
    call: (c, i) => c.users.unblock(i),
  }),
};
