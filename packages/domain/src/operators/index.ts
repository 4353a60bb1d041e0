/** Entry point of the operators module (the back-office console's team, sessions, two-factor codes and audit trail). Everything else in operators/ is private. */
export { appendAudit, CLI_ACTOR, listAudit, toAuditBody, withoutSecrets, type Actor, type AuditFilter } from './commands/audit.js';
export { acceptInvitation, ensureOperatorWithPassword, findOperator, inviteOperator, invitationMarketplace, listOperators, removeOperator, setOperatorRole, signInOperator, toOperatorBody } from './commands/operators.js';
export { authenticateOperator, endOperatorSession, type SignedInOperator } from './commands/sessions.js';
export { findOperatorSessionRows } from './sessions.queries.js';
export { acceptedStep, confirmTotp, startTotpEnrolment, TOTP_PERIOD_S } from './commands/totp.js';
export { INVITATION_TTL_MS, OPERATOR_SESSION_IDLE_MS, OPERATOR_SESSION_MAX_MS, OPERATOR_SIGN_IN_FAILURES, OPERATOR_TOKEN_PREFIX } from './limits.js';
