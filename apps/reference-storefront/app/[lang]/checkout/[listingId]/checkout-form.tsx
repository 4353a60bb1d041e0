'use client';

import { useRouter } from 'next/navigation';
import { useActionState, useEffect, useRef, useState, type ReactNode } from 'react';
import { FieldRow, type Field } from '../../../_components/field-row';
import { FormOutcome } from '../../../_components/action-form';
import { unplaced } from '../../../../lib/problems';
import type { FormState } from '../../../../lib/forms';
import { newKey } from '../../../../lib/new-key';
import { CHECKOUT_URL_FIELDS } from '../../../../lib/checkout-fields';
import { checkoutAction, keepCheckoutDraftAction } from '../../orders/actions';

interface Props {
  lang: string;
  listingId: string;
  /** the delivery fields, then the address fields (shown when shipping), then the voucher */
  delivery: Field[];
  address: Field[];
  voucher: Field;
  showAddress: boolean;
  labels: { name: string; delivery: string; address: string; update: string; place: string };
  /** the quote, rendered on the server from the current choices */
  children: ReactNode;
}

/**
 * Checkout's form. Any change re-quotes: the name, address and phone go to the server's draft
 * cookie (a server action), the other choices into the page's address, and the server renders the
 * new quote (through the typed API client); without JavaScript "Update price" does the same.
 * "Place order" posts to the server action.
 */
export function CheckoutForm({ lang, listingId, delivery, address, voucher, showAddress, labels, children }: Props) {
  const router = useRouter();
  const [state, formAction, pending] = useActionState(checkoutAction, {} as FormState);
  const [idempotencyKey, setIdempotencyKey] = useState('');
  useEffect(() => setIdempotencyKey(newKey()), [state]);
  // typing re-quotes once the typing pauses; a choice (select) at once
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const requote = (form: HTMLFormElement, typed: boolean) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(
      async () => {
        const data = new FormData(form);
        const params = new URLSearchParams();
        for (const [k, v] of data.entries()) if (typeof v === 'string' && v.trim() && (CHECKOUT_URL_FIELDS as readonly string[]).includes(k)) params.set(k, v.trim());
        await keepCheckoutDraftAction(data);
        const next = `/${lang}/checkout/${listingId}?${params}`;
        if (next === `${window.location.pathname}${window.location.search || '?'}`) router.refresh();
        else router.replace(next, { scroll: false });
      },
      typed ? 400 : 0,
    );
  };
  const row = (f: Field) => <FieldRow key={`${f.name}-${JSON.stringify(state.values?.[f.name] ?? null)}`} field={f} id={`checkout-${f.name}`} value={state.values?.[f.name] ?? f.defaultValue ?? ''} error={state.errors?.[f.name]} />;
  return (
    <form action={formAction} className="form checkout" aria-label={labels.name} noValidate onChange={(e) => requote(e.currentTarget, (e.target as HTMLElement).tagName === 'INPUT')} onSubmit={() => clearTimeout(timer.current)}>
      <input type="hidden" name="lang" value={lang} />
      <input type="hidden" name="listing_id" value={listingId} />
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      <fieldset>
        <legend>{labels.delivery}</legend>
        {delivery.map(row)}
      </fieldset>
      {showAddress && (
        <fieldset>
          <legend>{labels.address}</legend>
          {address.map(row)}
        </fieldset>
      )}
      {row(voucher)}
      <button type="submit" name="intent" value="quote" className="secondary">
        {labels.update}
      </button>
      {children}
      <FormOutcome state={state} others={unplaced(state.errors ?? {}, [...delivery, ...(showAddress ? address : []), voucher].map((f) => f.name), lang)} />
      <button type="submit" name="intent" value="place" disabled={pending}>
        {labels.place}
      </button>
    </form>
  );
}
