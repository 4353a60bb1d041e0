'use client';

import { useRouter } from 'next/navigation';
import { useActionState, useEffect, useState, type ReactNode } from 'react';
import type { FormState } from '../../../lib/forms';
import { FormOutcome } from '../../_components/action-form';
import { newKey } from '../../../lib/new-key';

/**
 * A small form posting to an order's server action (a transition, a booking, a test payment):
 * hidden fields, its own fields as children, its buttons, the problem in the shopper's words.
 */
export function OrderForm({
  action,
  hidden,
  name,
  children,
  success,
}: {
  action: (state: FormState, form: FormData) => Promise<FormState>;
  hidden: Record<string, string>;
  name: string;
  children: ReactNode;
  success?: string;
}) {
  const [state, formAction] = useActionState(action, {} as FormState);
  const [idempotencyKey, setIdempotencyKey] = useState('');
  useEffect(() => setIdempotencyKey(newKey()), [state]);
  return (
    <form action={formAction} className="form" aria-label={name}>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      {children}
      <FormOutcome state={state} success={success} others={Object.values(state.errors ?? {})} />
    </form>
  );
}

/** Re-renders the page every `ms` (an order waiting for its payment's confirmation). */
export function Poll({ ms }: { ms: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), ms);
    return () => clearInterval(timer);
  }, [router, ms]);
  return null;
}
