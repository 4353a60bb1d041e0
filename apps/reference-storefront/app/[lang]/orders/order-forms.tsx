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

/**
 * An order waiting for its payment's confirmation: waits on the storefront's server for the order's
 * next `order.updated` event (`updates/route.ts`, which reads the API's event feed), then re-renders
 * the page. A wait ends after 25 s without an event (the page re-renders anyway and waits again);
 * a failed wait re-renders after 2 s.
 */
export function WaitForOrder({ lang, id }: { lang: string; id: string }) {
  const router = useRouter();
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetch(`/${lang}/orders/${encodeURIComponent(id)}/updates`, { signal: controller.signal, cache: 'no-store' })
      .then((res) => (res.ok ? undefined : new Promise((r) => setTimeout(r, 2000))))
      .catch(() => new Promise((r) => setTimeout(r, 2000)))
      .then(() => {
        if (controller.signal.aborted) return;
        router.refresh();
        setRound((n) => n + 1);
      });
    return () => controller.abort();
  }, [router, lang, id, round]);
  return null;
}
