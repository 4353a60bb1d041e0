import { messages } from '../../lib/messages';
import { ActionForm } from './action-form';
import { subscribeAction } from './newsletter-actions';

/**
 * Newsletter sign-up: heading, a line of text, the address and a button, in the page's language
 * unless a page's newsletter block brings its own words. `source` says where it sits (`footer`, a
 * page slug) and goes to the API with the address; it also keeps the field ids of two forms on one
 * page apart.
 */
export function NewsletterForm({ lang, source, heading, text, buttonLabel }: { lang: string; source: string; heading?: string; text?: string; buttonLabel?: string }) {
  const t = messages(lang).newsletter;
  const id = `newsletter-${source}`.replace(/[^A-Za-z0-9_-]+/g, '-').toLowerCase();
  return (
    <section className="newsletter" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{heading || t.heading}</h2>
      <p className="muted">{text || t.text}</p>
      <ActionForm
        action={subscribeAction}
        name={heading || t.heading}
        idPrefix={id}
        fields={[{ name: 'email', label: t.email, type: 'email', autoComplete: 'email', required: true }]}
        hidden={{ lang, source }}
        submit={buttonLabel || t.button}
        success={t.done}
      />
    </section>
  );
}
