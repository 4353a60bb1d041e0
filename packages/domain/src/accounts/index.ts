/** Entry point of the accounts module: what other modules, the flows and the HTTP contract may use. Everything else in accounts/ is private. */
export { ZEmail, ZEmailInput, ZPassword, ZResetConfirmInput, ZSignedIn, ZSignInInput, ZSignUpInput, ZTeamUserInput, ZTokenInput, ZUpdateMeInput, ZUser } from './accounts.schema.js';
export { sendVerificationEmail, verifyEmail } from './commands/email-verification.js';
export { confirmPasswordReset, requestPasswordReset } from './commands/password-reset.js';
export { authenticateSession, toSessionBody } from './commands/sessions.js';
export { requestSignInLink, signInWithLink, signInWithPassword } from './commands/sign-in.js';
export { createConfirmedUser, createUserByTeam, findUserByEmail, listUsersForTeam, normalizeEmail, setUserBlocked, signUp, updateProfile } from './commands/users.js';
export { toUserBody } from './user.mapper.js';
export { decoyHash, hashPassword, verifyPassword } from './passwords.js';
