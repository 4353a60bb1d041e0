/** Entry point of the accounts module: what other modules, the flows and the HTTP contract may use. Everything else in accounts/ is private. */
export { ZEmail, ZTeamUserInput } from './accounts.schema.js';
export { authenticateSession } from './commands/sessions.js';
export { createConfirmedUser, createUserByTeam, findUserByEmail, normalizeEmail, setUserBlocked } from './commands/users.js';
export { toUserBody } from './user.mapper.js';
