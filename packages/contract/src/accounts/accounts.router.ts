import { router } from '../trpc.js';
import { confirmPasswordReset } from './procedures/confirm-password-reset.js';
import { createSession } from './procedures/create-session.js';
import { endCurrentSession } from './procedures/end-session.js';
import { requestPasswordReset } from './procedures/request-password-reset.js';
import { requestSignInLink } from './procedures/request-sign-in-link.js';
import { signInWithLink } from './procedures/sign-in-with-link.js';
import { signUp } from './procedures/sign-up.js';
import { verifyEmail } from './procedures/verify-email.js';

export const usersRouter = router({ signUp });
export const sessionsRouter = router({ create: createSession, endCurrent: endCurrentSession, requestEmailLink: requestSignInLink, fromLink: signInWithLink });
export const emailVerificationsRouter = router({ confirm: verifyEmail });
export const passwordResetsRouter = router({ request: requestPasswordReset, confirm: confirmPasswordReset });
