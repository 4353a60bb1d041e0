'use client';

import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useMemo, useState, type FormEvent } from 'react';

/**
 * Stripe's Payment Element for the order's PaymentIntent. The client secret reaches the browser
 * only here, as Stripe.js needs it (not in a URL); Stripe returns the buyer to the order page,
 * which polls until the webhook has confirmed the payment.
 */
export function StripePay({ publishableKey, clientSecret, returnUrl, lang, label }: { publishableKey: string; clientSecret: string; returnUrl: string; lang: string; label: string }) {
  const stripe = useMemo<Promise<Stripe | null>>(() => loadStripe(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe} options={{ clientSecret, locale: lang as 'en' }}>
      <PayForm returnUrl={returnUrl} label={label} />
    </Elements>
  );
}

function PayForm({ returnUrl, label }: { returnUrl: string; label: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } });
    // only an immediate error comes back here; otherwise Stripe redirects to the order page
    setMessage(error?.message);
    setBusy(false);
  };
  return (
    <form onSubmit={submit} className="form" aria-label={label}>
      <PaymentElement />
      {message && (
        <div className="problem" role="alert">
          <p>{message}</p>
        </div>
      )}
      <button type="submit" disabled={!stripe || busy}>
        {label}
      </button>
    </form>
  );
}
