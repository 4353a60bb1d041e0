import { UserSchema, type OrderState } from '@hm/db/entities';
import type { Effect } from '../core/state-machine.js';
import { queueOrderNotice, type OrderTemplate } from '../emails/index.js';
import { ORDER_EFFECT_SLOTS, type OrderMachineTypes } from '../orders/index.js';

/**
 * Order notices: the order machine's `notify` effect (orders/order.effects.ts names where it runs)
 * sends the buyer and the seller, each in their language, the notice of the state the order entered
 * — paid (`purchased`), sent (`delivered`), received — through the emails module's outbox
 * (→ addJob `send-email`, committed with the move). Other states send nothing (a payment confirmed
 * after its window ended stays `payment_expired`, and is refunded instead).
 */
const NOTICE: Partial<Record<OrderState, 'paid' | 'sent' | 'received'>> = { purchased: 'paid', delivered: 'sent', received: 'received' };

const notifyParties: Effect<OrderMachineTypes> = async ({ entity, ctx }) => {
  const notice = NOTICE[entity.status];
  if (!notice) return;
  const [buyer, seller] = await Promise.all([ctx.em.findOneOrFail(UserSchema, { id: entity.buyerId }), ctx.em.findOneOrFail(UserSchema, { id: entity.sellerId })]);
  // the notice names the item, and once sent its tracking
  const item = entity.lineItems.find((l) => l.code === 'item')?.label;
  const about = item ? { item, tracking: entity.delivery.tracking_number, carrier: entity.delivery.carrier } : undefined;
  await queueOrderNotice(ctx.em, ctx.marketplace, buyer, `order_${notice}_buyer` satisfies OrderTemplate, entity.id, about);
  await queueOrderNotice(ctx.em, ctx.marketplace, seller, `order_${notice}_seller` satisfies OrderTemplate, entity.id, about);
};

ORDER_EFFECT_SLOTS.fill({ notify: notifyParties });
