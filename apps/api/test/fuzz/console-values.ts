/** The back office's (/console/v1) values for the fuzzer: real rows of marketplace A, so valid requests reach the handlers. */
import type { FuzzContext, Operation } from './operations.js';
import type { Json } from './schema-values.js';

/** A path parameter value of the back office (/console/v1) that reaches the handler: a row of marketplace A the operation acts on. */
export function consolePathValue(ctx: FuzzContext, op: Operation, name: string): string {
  const { r, world } = ctx;
  const l = world.listings;
  const t = op.template;
  if (t.startsWith('/conversations/')) return r.pick(world.conversations);
  if (t.startsWith('/users/')) return r.pick([world.alice.id, world.bob.id]);
  if (t.startsWith('/orders/')) return r.pick(world.orders.ids);
  if (t.startsWith('/keys/')) return r.pick(ctx.operators!.keys);
  if (t.startsWith('/webhooks/')) return r.pick(ctx.operators!.webhooks);
  if (t.startsWith('/operators/')) return r.pick(ctx.operators!.team);
  if (t.startsWith('/pages/')) return name === 'slug' ? r.pick(world.pages.slugs) : r.pick(['en', 'sv']);
  return r.pick([...l.onSale, ...l.publishable, ...world.bob.listings]);
}

/** Values by field name that only the back office has (undefined: the name's value as on /v1). */
export function consoleHintFor(ctx: FuzzContext, op: Operation): (name: string) => Json | undefined {
  const { r } = ctx;
  const t = op.template;
  return (name) => {
    switch (name) {
      case 'email':
        return t === '/sessions' ? r.pick([ctx.operators!.email, 'nobody@example.com']) : undefined;
      case 'password':
        return t === '/sessions' ? r.pick([ctx.operators!.password, 'wrong password']) : undefined;
      case 'marketplace':
        return r.pick(['fuzz', 'other', 'nowhere']);
      // webhook endpoints: a local receiver nobody listens on, types or every type, A's events
      case 'url':
        return t.startsWith('/webhooks') ? r.pick(['http://127.0.0.1:9/hooks', 'https://hooks.example/in']) : undefined;
      case 'events':
        return t.startsWith('/webhooks') ? r.pick([['*'], ['order.updated', 'payout.updated'], ['user.created']]) : undefined;
      case 'event':
        return t.startsWith('/webhooks') ? r.pick(ctx.operators!.events) : undefined;
      default:
        return undefined;
    }
  };
}
