import type { Marketplace } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { takeToken } from '../../core/rate-limit.js';
import { abuseLimitsOf } from '../../marketplace/index.js';

const MINUTE = 60_000;

/**
 * Per-user limits on writing (not in the spec: docs/decisions.md), the marketplace's `abuse_limits`.
 * Counted with the core's fixed-window counters inside the writing transaction: the counter row stays
 * locked until it ends, and a refused write rolls its own hit back, so concurrent writes are counted
 * exactly and only written messages count.
 */
export async function countMessage(em: EntityManager, marketplace: Marketplace, userId: string, now: Date): Promise<void> {
  const limit = abuseLimitsOf(marketplace).messages_per_minute;
  await takeToken(em, { bucket: 'messages', limit, windowMs: MINUTE }, userId, now, `You have written ${limit} messages this minute, the most this marketplace allows. Try again in {seconds} seconds.`);
}

/** A conversation the user opened (any kind, support included); continuing an existing one is not counted. */
export async function countNewConversation(em: EntityManager, marketplace: Marketplace, userId: string, now: Date): Promise<void> {
  const limit = abuseLimitsOf(marketplace).new_conversations_per_hour;
  await takeToken(em, { bucket: 'conversations', limit, windowMs: 60 * MINUTE }, userId, now, `You have started ${limit} conversations this hour, the most this marketplace allows. Try again in {seconds} seconds, or write in one you already have.`);
}
