/**
 * Entry point of `@hm/domain/testing`: Stripe-, Resend- and S3-compatible servers for tests and benchmarks
 * (the real SDKs pointed at them), kept out of the runtime surface.
 */
export { startStripeTestServer, type StripeTestEvent, type StripeTestServer } from './stripe-test-server.js';
export { startResendTestServer, type ResendTestServer } from './resend-test-server.js';
export { startS3TestServer, type S3TestServer } from './s3-test-server.js';
export { NEWER_THAN_VENDORED_SPEC, stripeRequestProblems, stripeSpecProblems, stripePathTemplate, stripeSpecSource, type StripeSpecAllowance } from './stripe-spec.js';
