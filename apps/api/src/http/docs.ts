import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PROBLEMS } from '@hm/contract/problems';

const require = createRequire(import.meta.url);

/**
 * /docs pages run only our own script (Scalar, served from here) and talk only to this origin (the
 * OpenAPI document). Scalar sets styles inline, hence 'unsafe-inline' for styles only; nothing may
 * frame the pages.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0a5c4a"/><path d="M9 22V10h3.2l3.8 6.3 3.8-6.3H23v12h-3v-7.4l-4 6.5-4-6.5V22z" fill="#fff"/></svg>';

/**
 * Scalar's light theme with greys and blue dark enough for WCAG AA text (4.5:1 on its #f6f6f6
 * panels: its own #757575, #8e8e8e and #0084d6 are not), given as its configuration's customCss.
 */
const DOCS_CSS = '.light-mode{--scalar-color-2:#545454;--scalar-color-3:#595959;--scalar-color-blue:#005a9c}';
const DOCS_CONFIGURATION = JSON.stringify({ hideClientButton: true, withDefaultFonts: false, telemetry: false, customCss: DOCS_CSS });

/**
 * Scalar renders a few icon-only buttons (copy a code sample) without a name; this names them as
 * the page changes. Served from here (CSP: no inline script).
 */
const DOCS_A11Y = `(() => {
  const name = () => {
    for (const b of document.querySelectorAll('button')) {
      if ((b.getAttribute('aria-label') || '').trim() || (b.innerText || '').trim() || b.title) continue;
      b.setAttribute('aria-label', b.classList.contains('scalar-code-copy') ? 'Copy the code' : b.getAttribute('aria-expanded') === 'true' ? 'Hide details' : 'Show details');
    }
  };
  new MutationObserver(name).observe(document.documentElement, { childList: true, subtree: true });
  name();
})();`;

/** /docs: the API reference rendered by Scalar from /v1/openapi.json, its script served by us (no CDN). */
export function registerDocs(app: FastifyInstance) {
  // a callback hook, not an async one: every request of the app passes here (an async hook costs a promise and a turn each)
  app.addHook('onRequest', (req, reply, done) => {
    if (req.url === '/docs' || req.url.startsWith('/docs/') || req.url.startsWith('/docs?')) reply.header('Content-Security-Policy', DOCS_CSP);
    done();
  });

  // The standalone bundle is not in the package's exports map: find it beside the main entry.
  const scriptPath = path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
  let script: Buffer | undefined;

  app.get('/docs', async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Headless Marketplace API reference</title><link rel="icon" href="/favicon.ico" type="image/svg+xml"></head>
<body>
<script id="api-reference" data-url="/v1/openapi.json" data-configuration='${DOCS_CONFIGURATION}'></script>
<script src="/docs/scalar.js"></script>
<script src="/docs/a11y.js"></script>
</body>
</html>`),
  );
  app.get('/docs/scalar.js', async (_req, reply) => {
    script ??= readFileSync(scriptPath);
    return reply.type('application/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(script);
  });
  // browsers ask every origin for /favicon.ico: the shop's mark (as the storefront's icon), never a 404
  app.get('/favicon.ico', async (_req, reply) => reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(FAVICON));
  app.get('/docs/a11y.js', async (_req, reply) => reply.type('application/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(DOCS_A11Y));
  app.get('/docs/problems', async (_req, reply) => {
    const rows = Object.entries(PROBLEMS)
      .map(([code, p]) => `<tr id="${code}"><td><code>${code}</code></td><td>${p.status}</td><td>${p.title}</td></tr>`)
      .join('\n');
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Problem types</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem}td,th{padding:.3rem .8rem;text-align:left;border-bottom:1px solid #ddd}tr:target{background:#fff6d5}</style></head>
<body><h1>Problem types</h1><p>Every error is an RFC 9457 problem (<code>application/problem+json</code>) whose <code>type</code> links here and whose <code>code</code> is one of these. Validation problems list every invalid field in <code>errors</code>. <a href="/docs">API reference</a></p>
<table><thead><tr><th>code</th><th>status</th><th>title</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`);
  });
}
