import { z } from 'zod';
import { ZDateTime, ZId, pageLimit } from '../core/schemas.js';

/** Conversations and messages: the spec's Conversation and Message shapes and the Messages endpoints' inputs. */

export const CONVERSATION_KINDS = ['listing', 'order', 'support'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

/** Spec, Limits → Field lengths: message body 5000. */
export const MESSAGE_BODY_MAX = 5000;

export const ZMessageBody = z
  .string()
  .max(MESSAGE_BODY_MAX)
  .refine((s) => s.trim().length > 0, 'Must not be empty.')
  .meta({ description: `The text, 1..${MESSAGE_BODY_MAX} characters (not only spaces).` });

export const ZMessage = z
  .object({
    id: z.number().int().meta({ description: 'Increases within the marketplace: pass the last one you have as `after`.' }),
    body: z.string(),
    at: ZDateTime,
    from_marketplace: z.boolean().meta({ description: "Written by the marketplace's support." }),
    sender_id: ZId.optional().meta({ description: 'The user who wrote it; absent when written by the marketplace.' }),
  })
  .meta({ id: 'Message' });

export const ZConversation = z
  .object({
    id: ZId,
    kind: z.enum(CONVERSATION_KINDS),
    user_a: ZId.meta({ description: 'The buyer, or the user who asks (about a listing, or support).' }),
    user_b: ZId.optional().meta({ description: 'The seller; absent in support conversations.' }),
    listing_id: ZId.optional().meta({ description: 'The listing talked about (also on `order` conversations: the order’s listing).' }),
    order_id: ZId.optional(),
    last_message: z.string().optional(),
    last_message_at: ZDateTime,
    unread: z.number().int().meta({ description: 'Messages to the caller not yet returned to them by GET …/messages.' }),
    listing_title: z.string().optional().meta({ description: "The title of the listing talked about (an `order` conversation: the order's listing), for a list of conversations." }),
    listing_image: z
      .object({ id: ZId, urls: z.object({ thumb: z.string(), medium: z.string(), large: z.string() }) })
      .optional()
      .meta({ id: 'ConversationImage', description: "The listing's first ready photo (thumb 400 px square, medium 800 px, large 1600 px); absent when it has none." }),
    other_party: z
      .object({ id: ZId, display_name: z.string().meta({ description: 'Their public name; may be empty.' }) })
      .optional()
      .meta({ id: 'ConversationParty', description: 'Who the caller talks with; absent in `support` conversations (the marketplace answers).' }),
  })
  .meta({ id: 'Conversation' });

export const ZListConversations = z.strictObject({
  limit: pageLimit(100, 50),
  offset: z.coerce.number().int().min(0).max(2_147_483_647).default(0).meta({ description: '>= 0; a page shorter than `limit` is the last.' }),
});

export const ZStartConversation = z
  .strictObject({
    body: ZMessageBody,
    listing_id: ZId.optional().meta({ description: "Ask the listing's seller." }),
    order_id: ZId.optional().meta({ description: "Write to the order's other party (its buyer or its seller)." }),
    support: z.boolean().optional().meta({ description: "`true`: write to the marketplace's support." }),
  })
  .superRefine((input, ctx) => {
    const given = (['listing_id', 'order_id', 'support'] as const).filter((k) => (k === 'support' ? input.support === true : input[k] !== undefined));
    if (given.length === 0) ctx.addIssue({ code: 'custom', path: ['listing_id'], message: 'Give exactly one of `listing_id`, `order_id` or `support: true`.' });
    // every subject past the first is a problem of its own
    for (const k of given.slice(1)) ctx.addIssue({ code: 'custom', path: [k], message: 'Give exactly one of `listing_id`, `order_id` or `support: true`.' });
  })
  .meta({ id: 'StartConversation' });
export type StartConversationInput = z.infer<typeof ZStartConversation>;


export const ZListMessages = z.strictObject({
  id: ZId,
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).meta({ description: 'Only messages with a greater id (the last id you have), >= 0.' }),
  limit: pageLimit(200, 100),
});

export const ZPostMessage = z.strictObject({ id: ZId, body: ZMessageBody });
