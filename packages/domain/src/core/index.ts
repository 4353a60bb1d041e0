/**
 * Entry point of `@hm/domain/core` for the packages above the domain (contract, jobs, apps): the contexts,
 * errors, ports, tasks and tenancy mechanisms. Modules inside the domain import core files directly.
 */
export { consoleContext, type DeploymentFacts, type ApiMode, type AuthenticatedKey, type CommandContext, type Context, type KeyContext, type KeptCounts, type KeyKind, type OperatorSessionLookup, type OperatorSessionRows, type UserCommandContext, type UserContext } from './context.js';
export { ConflictError, describeErrors, type DomainCode, DomainError, type FieldError, NotFoundError, ValidationError } from './errors.js';
export { claimJob, nextDueJob } from './jobs.queries.js';
export { PaymentError, type PaymentEvent } from './ports/payments.js';
export { withMarketplace } from './request-scope.js';
export { pageLimit, ZCountryCode, ZCursor, ZDateTime, ZId, ZSlug } from './schemas.js';
export { runTask, type TaskContext, type TaskDefinition } from './tasks.js';
export { RETRY_AFTER_SECONDS, unavailableError } from './unavailable.js';
export { claimKey, deleteKeyMadeAt, findKey, releaseKey, storeResponse, takeOverKey, type IdempotencyRecord } from './idempotency-keys.queries.js';
export { systemClock, type Clock, type Ports } from './ports/index.js';
export { appendEvent, setEventPublicUrl, onEventAppended, type NewEvent } from './events.js';
export { hashToken } from './secret-token.js';
