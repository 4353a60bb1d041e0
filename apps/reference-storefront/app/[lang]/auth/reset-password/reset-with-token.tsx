'use client';

import Link from 'next/link';
import { useActionState, type ReactNode } from 'react';
import type { FormState } from '../../../../lib/forms';
import type { Messages } from '../../../../lib/messages';

/** Only strings cross to the browser (the message catalogue also holds functions). */
export type ResetTexts = Pick<Messages, 'reset'> & { newPassword: string; signIn: string };
import { confirmResetAction } from '../actions';

/**
 * The new-password form of an emailed reset link. When the link turns out used or expired, the
 * message says so and the request form for a new link appears right under it.
 */
export function ResetWithToken({ lang, token, requestForm, t, signInHref }: { lang: string; token: string; requestForm: ReactNode; t: ResetTexts; signInHref: string }) {
  const [state, action, pending] = useActionState(confirmResetAction, {} as FormState);
  if (state.ok) {
    return (
      <>
        <p className="notice" role="status">
          {t.reset.done}
        </p>
        <p>
          <Link href={signInHref}>{t.signIn}</Link>
        </p>
      </>
    );
  }
  const linkDead = state.code === 'link_used' || state.code === 'link_expired' || state.code === 'link_invalid';
  if (linkDead) {
    return (
      <>
        <p className="problem" role="alert">
          {state.message}
        </p>
        {requestForm}
      </>
    );
  }
  const error = state.errors?.password;
  return (
    <form action={action} className="form" aria-label={t.reset.chooseSubmit} noValidate>
      <p>{t.reset.chooseText}</p>
      <input type="hidden" name="lang" value={lang} />
      <input type="hidden" name="token" value={token} />
      <div className={`field${error ? ' has-error' : ''}`}>
        <label htmlFor="new-password">{t.newPassword}</label>
        <input id="new-password" name="password" type="password" autoComplete="new-password" required aria-invalid={error ? true : undefined} aria-describedby={error ? 'new-password-error' : undefined} />
        {error && (
          <small id="new-password-error" className="field-error" role="alert">
            {error}
          </small>
        )}
      </div>
      {state.message && (
        <p className="problem" role="alert">
          {state.message}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {t.reset.chooseSubmit}
      </button>
    </form>
  );
}
