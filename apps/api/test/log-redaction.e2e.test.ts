import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiLogger, redactUrl } from '../src/http/logging.js';
import { makeMarketplace, startHarness, type Harness } from './harness.js';

/** The API log (as `npm start` configures it) never holds preview tokens, mailbox addresses or tRPC query inputs. */
const lines: string[] = [];
let h: Harness;
let keys: { secret: string; publishable: string };
beforeAll(async () => {
  h = await startHarness({ app: { logger: { ...apiLogger('info'), stream: { write: (line: string) => void lines.push(line) } } } });
  keys = await makeMarketplace(h, 'shop');
});
afterAll(() => h.close());

const SECRETS = ['pv_SecretPreviewToken123', 'alice.private@example.com', 'alice.private%40example.com'];

test('tRPC GET inputs and /v1 token/to/email parameters are [redacted] in every log line; other parameters stay', async () => {
  const input = (o: object) => encodeURIComponent(JSON.stringify(o));
  const urls = [
    `/trpc/pages.preview?input=${input({ slug: 'about', token: 'pv_SecretPreviewToken123' })}`,
    `/trpc/testHelpers.emails.list?input=${input({ limit: 5, to: 'alice.private@example.com' })}`,
    '/v1/pages/about/preview?token=pv_SecretPreviewToken123',
    '/v1/test-helpers/emails?to=alice.private%40example.com&limit=5',
  ];
  for (const url of urls) {
    const res = await h.request({ method: 'GET', url, key: keys.secret });
    expect(res.statusCode, url).toBeLessThan(500);
  }
  await h.request({ method: 'GET', url: '/v1/categories?limit=7', key: keys.secret });
  const log = lines.join('');
  for (const s of SECRETS) expect(log).not.toContain(s);
  const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.req?.url).map((l) => l.req.url as string);
  expect(logged).toEqual(
    expect.arrayContaining([
      '/trpc/pages.preview?input=[redacted]',
      '/trpc/testHelpers.emails.list?input=[redacted]',
      '/v1/pages/about/preview?token=[redacted]',
      '/v1/test-helpers/emails?to=[redacted]&limit=5',
      '/v1/categories?limit=7',
    ]),
  );
});

test('redactUrl: encoded names, repeated and bare parameters, bad percent-encoding', () => {
  expect(redactUrl('/v1/x?%74oken=pv_a&to=b&to=c&flag')).toBe('/v1/x?%74oken=[redacted]&to=[redacted]&to=[redacted]&flag');
  expect(redactUrl('/v1/x?%E0%A4%A=pv_a')).toBe('/v1/x?%E0%A4%A=[redacted]');
  expect(redactUrl('/trpc/a.b?batch=1&input=x')).toBe('/trpc/a.b?batch=1&input=[redacted]');
  expect(redactUrl('/v1/x?input=keep')).toBe('/v1/x?input=keep');
  expect(redactUrl('/v1/x')).toBe('/v1/x');
});
