import { parseTemplate } from '@hm/rest';
import type { World } from './fixture.js';
import type { Rng } from './prng.js';
import { validValue, type Hint, type Json, type Schema } from './schema-values.js';
import { consoleHintFor, consolePathValue } from './console-values.js';

/** One operation of the published document, reduced to what the fuzzer needs to call it. */
export interface Operation {
  /** `GET /listings/{id}` */
  id: string;
  method: string;
  template: string;
  params: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }[];
  /** content types of the request body and the JSON body's schema */
  body?: { types: string[]; schema?: Schema };
  /** what the operation needs: nothing, any key, the secret key, the secret key and a user session, or an operator session (/console/v1) */
  auth: 'none' | 'key' | 'secret' | 'session' | 'operator';
  /** the document's URL prefix: `/v1`, or the back office's `/console/v1` */
  base: string;
}

type Doc = { paths: Record<string, Record<string, Record<string, unknown>>>; components: { parameters?: Record<string, unknown> } };

/** The operations of /v1 (or of the document at `base`): a path item with servers of its own (the Stripe webhook, called by Stripe with its signature) is not fuzzed here. */
export function operationsOf(doc: Doc, base = '/v1'): Operation[] {
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries('servers' in methods ? {} : methods).map(([method, raw]) => {
      const op = raw as { parameters?: { $ref?: string }[]; requestBody?: { content: Record<string, { schema?: Schema }> }; security?: Record<string, unknown>[] };
      const params = (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters![p.$ref.split('/').pop()!] : p) as Operation['params'][number]);
      const security = op.security ?? [];
      const auth: Operation['auth'] =
        security.length === 0
          ? 'none'
          : security.some((s) => 'operatorSession' in s)
            ? 'operator'
            : security.every((s) => 'userSession' in s)
            ? 'session'
            : security.some((s) => 'publishableKey' in s)
              ? 'key'
              : 'secret';
      const content = op.requestBody?.content;
      return {
        id: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        params,
        auth,
        base,
        ...(content ? { body: { types: Object.keys(content), schema: content['application/json']?.schema } } : {}),
      };
    }),
  );
}

export const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request being built: parts stay separate so a mutation can change one and keep the rest valid. */
export interface Draft {
  op: Operation;
  method: string;
  /** path parameter → URL text (already encoded, or deliberately not) */
  pathValues: Record<string, string>;
  /** query pairs as URL text; a null value is a bare name (`?in_use`) */
  query: [string, string | null][];
  headers: Record<string, string | string[]>;
  /** the JSON body, rendered unless `payload` is set */
  body?: Json;
  payload?: string | Buffer;
  /** send over a real socket (bytes the injector would normalise) */
  socket?: boolean;
}

export interface Req {
  method: string;
  /** as sent, or a readable form of `bytes` */
  url: string;
  headers: Record<string, string | string[]>;
  payload?: string | Buffer;
  /** send over a real socket */
  socket?: boolean;
  /** the whole request, byte for byte (socket only) */
  bytes?: Buffer;
}

export function render(d: Draft): Req {
  const template = parseTemplate(d.op.template);
  // path values are kept percent-encoded (some mutations break the encoding on purpose): put in as they are
  const path = template.fill(Object.fromEntries(template.params.map((name) => [name, d.pathValues[name] ?? ''])), (raw) => raw);
  const qs = d.query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
  const payload = d.payload ?? (d.body !== undefined ? JSON.stringify(d.body) : undefined);
  return { method: d.method, url: `${d.op.base}${path}${qs ? `?${qs}` : ''}`, headers: d.headers, ...(payload !== undefined ? { payload } : {}), ...(d.socket ? { socket: true } : {}) };
}

export interface FuzzContext {
  r: Rng;
  world: World;
  /** a counter for unique values (emails) */
  seq: { n: number };
  /** /console/v1: operator session tokens of marketplace A: its admin's, and one signing out may end */
  operators?: {
    admin: string;
    email: string;
    password: string;
    spare: string;
    /** API keys of A to revoke (never the world's own) */
    keys: string[];
    /** webhook endpoints of A (to change, rotate, delete, replay to) and event ids of A (to replay) */
    webhooks: string[];
    events: string[];
    /** operators of A to change and remove (never the admin the run relies on) */
    team: string[];
  };
}

/** Stands for a spare session the runner puts in when the request is sent (see `spareSessions`). */
export const SPARE_SESSION = 'fuzz-spare-session';

/** The key and session an operation is normally called with (a random allowed mix where several work). */
export function authHeaders(ctx: FuzzContext, op: Operation, method = op.method): Record<string, string> {
  const { r, world } = ctx;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  if (op.auth === 'none') return {};
  if (op.auth === 'operator') return bearer(op.template === '/sessions/current' && method === 'DELETE' ? ctx.operators!.spare : ctx.operators!.admin);
  if (op.auth === 'secret') return bearer(world.secret);
  if (op.auth === 'key') return r.pick([bearer(world.secret), bearer(world.publishable), { ...bearer(world.secret), 'x-user-session': world.alice.session }]);
  // signing out ends the session it is called with: never the one the rest of the run relies on
  const session = op.template === '/sessions/current' && method === 'DELETE' ? SPARE_SESSION : world.alice.session;
  return { ...bearer(world.secret), 'x-user-session': session };
}

/**
 * A path parameter value that reaches the handler: the listing, photo or term the operation acts
 * on, from the pool kept for that kind of use. `method` is the method actually sent (a mutation may
 * send DELETE to a path documented for PUT: it must not delete a listing other operations need).
 */
export function pathValue(ctx: FuzzContext, op: Operation, name: string, method = op.method): string {
  const { r, world } = ctx;
  const l = world.listings;
  const t = op.template;
  if (op.base === '/console/v1') return consolePathValue(ctx, op, name);
  if (t === '/catalog-terms/{kind}/{slug}') {
    const term = r.pick(world.terms);
    return name === 'kind' ? term.kind : term.slug;
  }
  // the preview token is home's draft's: another slug with it is a 404 whatever the seed picks
  if (t === '/pages/{slug}/preview') return 'home';
  if (t === '/pages/{slug}') return r.pick(world.pages.slugs);
  if (t === '/media/{id}/{file}') return name === 'id' ? r.pick([...world.pages.media, world.pages.foreignMedia]) : r.pick(['thumb.jpg', 'medium.jpg', 'large.jpg', 'xlarge.jpg']);
  if (t === '/images/{id}/{file}') return name === 'id' ? r.pick([...world.images.order.ids, world.foreign.image]) : r.pick(['thumb.jpg', 'medium.jpg', 'large.jpg']);
  if (t === '/me/listings/{id}/images/{image_id}') return name === 'id' ? world.images.delete.listing : r.pick(world.images.delete.ids);
  if (t === '/me/listings/{id}/images/order') return world.images.order.listing;
  if (t === '/me/listings/{id}/images') return world.images.upload;
  if (t === '/me/listings/{id}/offer/accept') return r.pick(l.acceptable);
  if (t === '/me/listings/{id}/offer/counter') return r.pick(l.counterable);
  if (t === '/me/listings/{id}/publish') return r.pick(l.publishable);
  if (t === '/me/listings/{id}/close') return r.pick(l.closeable);
  if (t === '/me/orders/{id}') return r.pick(world.orders.ids);
  if (t === '/me/orders/{id}/delivery-booking') return r.pick(world.orders.booked);
  if (t === '/me/orders/{id}/delivery') return r.pick(world.orders.sent);
  if (t === '/me/conversations/{id}/messages') return r.pick(world.conversations);
  if (t === '/me/orders/{id}/transitions/{transition}') return name === 'id' ? r.pick(world.orders.receivable) : 'mark-received-early';
  if (t === '/me/listings/{id}') {
    if (method === 'DELETE') return r.pick(l.deletable);
    if (method === 'GET') return r.pick(Object.values(l).flat());
    return r.pick(l.editable);
  }
  return r.pick([...l.onSale, ...world.bob.listings]);
}

/** Realistic values by field or parameter name, so valid requests find real rows. */
export function hintFor(ctx: FuzzContext, op: Operation): Hint {
  const { r, world } = ctx;
  const consoleHint = op.base === '/console/v1' ? consoleHintFor(ctx, op) : undefined;
  return (name): Json | undefined => {
    const own = consoleHint?.(name);
    if (own !== undefined) return own;
    switch (name) {
      case 'email':
        if (op.template === '/users') return `fuzz.${++ctx.seq.n}@example.com`;
        return r.pick([world.alice.email, 'dave@example.com', `nobody.${ctx.seq.n++}@example.com`]);
      case 'password':
        if (op.template === '/sessions') return r.pick([world.alice.password, 'wrong password']);
        return 'a long enough password';
      case 'token':
        if (op.template === '/sessions/from-link') return world.tokens.signInLink;
        if (op.template === '/email-verifications') return world.tokens.verification;
        if (op.template === '/pages/{slug}/preview') return world.pages.previewToken;
        return world.tokens.passwordReset;
      case 'category_id':
      case 'category':
        return r.pick(world.categories);
      case 'terms':
        return { brand: r.pick(world.terms.filter((t) => t.kind === 'brand')).id };
      case 'term':
        return [r.pick(world.terms).id];
      case 'image_ids':
        return [...world.images.order.ids].sort(() => r.next() - 0.5);
      case 'seller':
        return r.pick([world.alice.id, world.bob.id]);
      case 'attributes':
        return { condition: r.pick(['good', 'new', 'worn']) };
      case 'attr':
        return ['condition:good'];
      case 'currency':
        return r.pick(['SEK', 'EUR']);
      case 'locale':
        return r.pick(['en', 'sv']);
      case 'kind':
        return 'brand';
      case 'to':
        return world.alice.email;
      case 'in_use':
        return r.pick(['true', 'false']);
      case 'until':
        return '2026-12-24T00:00:00.000Z';
      case 'client_secret':
        return r.pick([...world.paymentSecrets, ...world.orders.secrets]);
      case 'outcome':
        // a declined payment stays payable; one paid is then 409 for the rest of the run
        return r.pick(['failed', 'failed', 'failed', 'succeeded']);
      case 'cursor': {
        const own = world.cursors.filter((c) => `${op.base}${op.template}` === c.path);
        return own.length ? r.pick(own).cursor : undefined;
      }
      case 'price':
        return { amount: r.int(100, 500_000), currency: r.pick(['SEK', 'EUR']) };
      case 'stock':
        return 1;
      // orders: the other seller's listing, picked up, a real voucher; a pending payment; an open delivery slot
      case 'listing_id':
        return world.orders.listing;
      case 'delivery':
        return op.template.startsWith('/me/orders') ? { method: 'pickup' } : undefined;
      case 'quantity':
        return op.template.startsWith('/me/orders') ? 1 : undefined;
      case 'voucher_code':
        return world.orders.voucher;
      // conversations about one of the main user's orders; payouts test helpers on the buyer's paid orders
      case 'order_id':
        return r.pick(world.orders.ids);
      // conversations with support
      case 'support':
        return true;
      // payouts: a country, a business type
      case 'country':
        return op.template === '/me/payouts/session' ? r.pick(['SE', 'DE']) : undefined;
      case 'business_type':
        return r.pick(['individual', 'company']);
      case 'date':
        return '2026-12-01';
      case 'window':
        return 'am';
      default:
        return undefined;
    }
  };
}

export const encodeValue = (v: Json) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));

/** A request the operation should accept (or refuse only for domain reasons): the starting point of every mutation. */
export function baseDraft(ctx: FuzzContext, op: Operation, method = op.method): Draft {
  const { r } = ctx;
  const hint = hintFor(ctx, op);
  const pathValues: Record<string, string> = {};
  const query: Draft['query'] = [];
  for (const p of op.params) {
    if (p.in === 'path') pathValues[p.name] = encodeURIComponent(pathValue(ctx, op, p.name, method));
    if (p.in === 'query' && (p.required || r.chance(0.35))) {
      const value = validValue(r, p.schema, p.name, hint);
      for (const v of Array.isArray(value) ? value : [value]) query.push([p.name, encodeValue(v)]);
    }
  }
  const headers: Record<string, string | string[]> = { ...authHeaders(ctx, op, method) };
  let body: Json | undefined;
  let payload: Buffer | undefined;
  if (op.body?.schema) {
    body = validValue(r, op.body.schema, 'body', hint);
    // hashing a password costs tens of milliseconds on a busy machine: most sign-ups go without one
    if (op.template === '/users' && r.chance(0.8)) delete (body as Record<string, Json>).password;
    headers['content-type'] = 'application/json';
  } else if (op.body) {
    payload = ctx.world.photo;
    headers['content-type'] = r.pick(op.body.types);
  }
  if (MUTATING.has(op.method) && r.chance(0.3)) headers['idempotency-key'] = r.uuid();
  return { op, method, pathValues, query, headers, ...(body !== undefined ? { body } : {}), ...(payload ? { payload } : {}) };
}
