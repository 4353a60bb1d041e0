import { z } from 'zod';
import { ZCursor } from '@hm/domain/core';

export const ZOperator = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: z.enum(['admin', 'viewer']),
    totp_enabled: z.boolean(),
    invitation_pending: z.boolean().meta({ description: 'True until the invitation is accepted (no password yet).' }),
    created_at: z.string(),
  })
  .meta({ id: 'Operator' });

export const ZOperatorSignedIn = z
  .object({ token: z.string().meta({ description: 'The operator session token (`ops_…`): send it as `Authorization: Bearer <token>`. Ends 12 hours after last use, 7 days after sign-in at most.' }), operator: ZOperator })
  .meta({ id: 'OperatorSignedIn' });

export const ZAuditEntry = z
  .object({
    id: z.uuid(),
    at: z.string(),
    actor: z.object({ type: z.enum(['operator', 'cli']), id: z.uuid().optional(), email: z.string().optional() }),
    action: z.string(),
    target: z.object({ type: z.string(), id: z.string() }),
    data: z.record(z.string(), z.unknown()),
    request_id: z.string(),
  })
  .meta({ id: 'AuditEntry' });

export const ZPage = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().optional().meta({ description: 'Absent on the last page.' }) });

/** Bodies the back office shows as the domain maps them (listings, conversations, users): documented loosely here. */
export const ZAnyObject = z.looseObject({});

/** Who sells a listing (the team's listing views). */
export const ZListingSeller = z
  .object({ id: z.uuid(), display_name: z.string().meta({ description: 'The name the seller shows; empty when they have not set one.' }), email: z.string() })
  .meta({ id: 'ListingSeller' });

/** A listing as the team sees it: the storefront's listing body (documented loosely), its seller, and the commission override when set. */
export const ZConsoleListing = z
  .looseObject({
    id: z.uuid(),
    seller: ZListingSeller,
    commission_percent: z.number().optional().meta({ description: "This listing's commission in percent; absent: the marketplace's." }),
  })
  .meta({ id: 'ConsoleListing' });

export const ZPaging = { limit: z.coerce.number().int().min(1).max(100).default(50).describe('1..100, default 50.'), cursor: ZCursor };
