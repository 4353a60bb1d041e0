import type { EmailLink } from '@hm/db/entities';
import { textsFor, type EmailTemplate } from './templates.js';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  links: EmailLink[];
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One email with one call to action, as plain text and simple inline-styled HTML. */
export function renderEmail(input: { template: EmailTemplate; locale: string; shopName: string; recipientName: string; url: string; named?: { subject: string; lead: string } }): RenderedEmail {
  const catalog = textsFor(input.locale);
  const base = catalog[input.template];
  // a notice that names what it is about: its own subject, and its lead before the template's body
  const t = input.named ? { ...base, subject: input.named.subject, body: `${input.named.lead} ${base.body}` } : base;
  const name = input.recipientName.trim() || catalog.fallbackGreeting;
  const signature = catalog.signature(input.shopName);
  const text = [t.greeting(name), '', t.body, '', `${t.button}: ${input.url}`, '', t.validity, t.ignore, '', signature, ''].join('\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = `<!doctype html>
<html lang="${escapeHtml(input.locale)}"><head><meta charset="utf-8"><title>${escapeHtml(t.subject)}</title></head>
<body style="font-family:system-ui,-apple-system,sans-serif;color:#1a1a1a;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">
${p(t.greeting(name))}
${p(t.body)}
<p style="margin:24px 0"><a href="${escapeHtml(input.url)}" style="background:#1a1a1a;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(t.button)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">${escapeHtml(input.url)}</p>
${p(t.validity)}
${p(t.ignore)}
${p(signature)}
</body></html>
`;
  return { subject: t.subject, text, html, links: [{ label: t.button, url: input.url }] };
}
