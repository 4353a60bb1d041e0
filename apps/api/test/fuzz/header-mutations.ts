import { always, hasJsonBody, mutation, type Case, type Mutation } from './cases.js';
import { baseDraft, MUTATING, render, type Draft, type Operation } from './operations.js';
import { nestedJson, setAt, type Json } from './schema-values.js';

/** Mutations of who is calling (keys, sessions) and of Idempotency-Key, Accept and the method. */

const bearer = (key: string) => `Bearer ${key}`;
const needsKey = (op: Operation) => op.auth !== 'none';
const needsSession = (op: Operation) => op.auth === 'session' || op.auth === 'key';

function as(d: Draft, authorization: string | undefined, session: string | undefined) {
  delete d.headers.authorization;
  delete d.headers['x-user-session'];
  if (authorization !== undefined) d.headers.authorization = authorization;
  if (session !== undefined) d.headers['x-user-session'] = session;
}

export const authMutations: Mutation[] = [
  mutation('auth:none', always, (_ctx, d) => {
    as(d, undefined, undefined);
    return 'no key, no session';
  }),
  mutation('auth:publishable', needsKey, (ctx, d) => {
    as(d, bearer(ctx.world.publishable), ctx.r.chance(0.5) ? ctx.world.alice.session : undefined);
    return 'publishable key';
  }),
  mutation('auth:secret-only', needsKey, (ctx, d) => {
    as(d, bearer(ctx.world.secret), undefined);
    return 'secret key, no session';
  }),
  mutation('auth:foreign-key', needsKey, (ctx, d) => {
    as(d, bearer(ctx.r.pick([ctx.world.foreign.secret, ctx.world.foreign.publishable])), ctx.world.alice.session);
    return 'the other marketplace’s key with our session';
  }),
  mutation('auth:foreign-session', needsSession, (ctx, d) => {
    as(d, bearer(ctx.world.secret), ctx.world.foreign.session);
    return 'a session of the other marketplace';
  }),
  mutation('auth:ended-session', needsSession, (ctx, d) => {
    as(d, bearer(ctx.world.secret), ctx.world.endedSession);
    return 'a signed-out session';
  }),
  mutation('auth:malformed', always, (ctx, d) => {
    const s = ctx.world.secret;
    const value = ctx.r.pick([
      'Bearer',
      'Bearer ',
      `bearer ${s}`,
      `BEARER ${s}`,
      `Basic ${Buffer.from(`${s}:`).toString('base64')}`,
      s,
      `Bearer ${s} extra`,
      `Bearer  ${s}`,
      `Bearer ${s.replace('_test_', '_live_')}`,
      `Bearer ${s.slice(0, -1)}`,
      `Bearer sk_test_${'x'.repeat(5000)}`,
      `Bearer ${s}\t`,
      'Bearer pk_test_',
      'Bearer sk_test_',
      'Bearer rk_test_abc',
      `Bearer ${s},Bearer ${s}`,
    ]);
    as(d, value, d.headers['x-user-session'] as string | undefined);
    return `authorization: ${value.length > 60 ? `${value.slice(0, 30)}…(${value.length})` : value}`;
  }),
  mutation('auth:malformed-session', needsSession, (ctx, d) => {
    const value = ctx.r.pick(['', 'x', 'x'.repeat(5000), `${ctx.world.alice.session}x`, ctx.world.alice.session.toUpperCase(), ` ${ctx.world.alice.session}`, 'null', '${jndi:ldap://x}', `${ctx.world.alice.session},${ctx.world.alice.session}`]);
    as(d, bearer(ctx.world.secret), value);
    return `x-user-session: ${value.slice(0, 30)}`;
  }),
];

const withKey = (d: Draft, key: string) => {
  d.headers['idempotency-key'] = key;
  return d;
};

/** Several requests in order under one Idempotency-Key. */
function sequence(name: string, applies: (op: Operation) => boolean, make: (ctx: Parameters<Mutation['make']>[0], op: Operation) => { detail: string; drafts: Draft[] }): Mutation {
  return {
    name,
    applies,
    make(ctx, op): Case {
      const { detail, drafts } = make(ctx, op);
      return { op: op.id, mutation: name, detail, requests: drafts.map(render) };
    },
  };
}

const mutating = (op: Operation) => MUTATING.has(op.method);

export const idempotencyMutations: Mutation[] = [
  mutation('idem:valid', mutating, (ctx, d) => {
    d.headers['idempotency-key'] = ctx.r.chance(0.8) ? ctx.r.uuid() : ctx.r.uuid().toUpperCase();
    return 'a new key';
  }),
  mutation('idem:invalid', mutating, (ctx, d) => {
    const id = ctx.r.uuid();
    const value = ctx.r.pick(['', 'abc', `${id}x`, `{${id}}`, 'x'.repeat(300), ` ${id}`, id.replaceAll('-', ''), `${id},${ctx.r.uuid()}`, '00000000-0000-0000-0000-000000000000', '%00']);
    d.headers['idempotency-key'] = value;
    return `idempotency-key: ${value.slice(0, 40)}`;
  }),
  sequence('idem:replay', mutating, (ctx, op) => {
    const d = withKey(baseDraft(ctx, op), ctx.r.uuid());
    return { detail: 'the same request twice under one key', drafts: [d, d] };
  }),
  sequence('idem:replay-invalid', (op) => mutating(op) && hasJsonBody(op), (ctx, op) => {
    const d = withKey(baseDraft(ctx, op), ctx.r.uuid());
    d.body = setAt(d.body ?? {}, [Object.keys(op.body!.schema!.properties ?? { fuzz: 0 })[0] ?? 'fuzz'], ctx.r.pick<Json>([[], {}, 12345]));
    return { detail: 'a refused request twice under one key (the replay must be the same problem)', drafts: [d, d] };
  }),
  sequence('idem:reused', mutating, (ctx, op) => {
    const key = ctx.r.uuid();
    const first = withKey(baseDraft(ctx, op), key);
    const second = withKey(baseDraft(ctx, op), key);
    if (hasJsonBody(op)) second.body = setAt(second.body ?? {}, ['fuzz_changed'], 1);
    else second.query.push(['changed', '1']);
    return { detail: 'one key, then a different request', drafts: [first, second] };
  }),
  mutation('idem:nested', mutating, (ctx, d) => {
    d.headers['idempotency-key'] = ctx.r.uuid();
    const depth = ctx.r.pick([3000, 6000]);
    const nested = nestedJson(depth, ctx.r.pick(['array', 'object'] as const));
    d.payload = hasJsonBody(d.op) && ctx.r.chance(0.5) ? JSON.stringify(d.body ?? {}).replace(/}$/, `${JSON.stringify(d.body ?? {}) === '{}' ? '' : ','}"deep":${nested}}`) : nested;
    d.headers['content-type'] = 'application/json';
    return `${depth}-level JSON with a key`;
  }),
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export const protocolMutations: Mutation[] = [
  mutation('accept', always, (ctx, d) => {
    d.headers.accept = ctx.r.pick(['application/xml', 'text/html', 'application/json;q=0', '*/*;q=0', 'image/png', 'fuzz', '', 'application/problem+json']);
    return `accept: ${d.headers.accept}`;
  }),
  {
    name: 'method:other',
    applies: always,
    make(ctx, op) {
      const d = baseDraft(ctx, op, ctx.r.pick(METHODS.filter((m) => m !== op.method)));
      return { op: op.id, mutation: 'method:other', detail: `${d.method} instead of ${op.method}`, requests: [render(d)] };
    },
  },
];

export const headerMutations: Mutation[] = [...authMutations, ...idempotencyMutations, ...protocolMutations];
