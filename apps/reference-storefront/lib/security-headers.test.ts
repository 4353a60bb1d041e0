import { describe, expect, test } from 'vitest';
import { contentSecurityPolicy, originOf } from './security-headers';

const directive = (csp: string, name: string) => new RegExp(`(?:^|; )${name} ([^;]+)`).exec(csp)?.[1] ?? '';

describe('contentSecurityPolicy', () => {
  test('production without Stripe: nonce-only scripts, nothing framed, no eval, no WebSockets', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc', dev: false, stripe: false, apiOrigin: 'https://api.shop.example' });
    expect(directive(csp, 'script-src')).toBe("'self' 'nonce-abc' 'strict-dynamic'");
    expect(directive(csp, 'frame-src')).toBe("'none'");
    expect(directive(csp, 'frame-ancestors')).toBe("'none'");
    expect(directive(csp, 'connect-src')).toBe("'self'");
    expect(directive(csp, 'img-src')).toBe("'self' data: blob: https: https://api.shop.example");
    expect(csp).not.toMatch(/unsafe-eval|ws:/);
  });

  test('with Stripe: the hosts Stripe documents for the Payment Element and Connect embedded onboarding', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc', dev: false, stripe: true });
    expect(directive(csp, 'script-src')).toBe("'self' 'nonce-abc' 'strict-dynamic' https://js.stripe.com https://*.js.stripe.com https://connect-js.stripe.com");
    expect(directive(csp, 'frame-src')).toBe('https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com https://connect-js.stripe.com');
    expect(directive(csp, 'connect-src')).toBe("'self' https://api.stripe.com https://connect-js.stripe.com");
    expect(directive(csp, 'img-src')).toContain('https://*.stripe.com');
    expect(directive(csp, 'frame-ancestors')).toBe("'none'");
  });

  test('next dev: eval (React dev build) and the hot-reload WebSocket', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc', dev: true, stripe: false });
    expect(directive(csp, 'script-src')).toContain("'unsafe-eval'");
    expect(directive(csp, 'connect-src')).toBe("'self' ws: wss:");
  });

  test('originOf', () => {
    expect(originOf('http://127.0.0.1:4000/v1')).toBe('http://127.0.0.1:4000');
    expect(originOf('not a url')).toBeUndefined();
    expect(originOf(undefined)).toBeUndefined();
  });
});
