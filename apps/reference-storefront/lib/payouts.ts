import 'server-only';

/**
 * Stripe's publishable key for the embedded onboarding component, when Stripe is configured (the
 * storefront runs with the API's environment); unset → the sandbox's own onboarding page.
 */
export function stripePublishableKey(): string | undefined {
  const key = process.env.STRIPE_PUBLISHABLE_KEY;
  return key && /^pk_(test|live)_\w+$/.test(key) ? key : undefined;
}
