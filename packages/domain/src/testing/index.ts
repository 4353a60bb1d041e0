/**
 * Entry point of `@hm/domain/testing`: Stripe- and Resend-compatible servers for tests and benchmarks
 * (the real SDKs pointed at them), kept out of the runtime surface.
 */
export { startStripeTestServer, type StripeTestEvent, type StripeTestServer } from './stripe-test-server.js';
export { startResendTestServer, type ResendTestServer } from './resend-test-server.js';
