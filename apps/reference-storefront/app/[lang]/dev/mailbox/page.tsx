import { safe } from '@trpc/client';
import { notFound } from 'next/navigation';
import { ApiProblem } from '../../../_components/api-problem';
import { Shell } from '../../../_components/shell';
import { api, devMailboxAllowed } from '../../../../lib/api';
import { problemText } from '../../../../lib/problems';
import { messages } from '../../../../lib/messages';
import { titled } from '../../../../lib/page-meta';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.mailbox.title);

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ to?: string }> };

/**
 * Test mode only, and only when STOREFRONT_DEV_MAILBOX allows this request (lib/client.ts): the
 * emails the shop sent (through the API's test helper), with their links clickable. Otherwise 404.
 */
export default async function MailboxPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const { to } = await searchParams;
  if (!(await devMailboxAllowed())) notFound();
  const t = messages(lang).mailbox;
  const [data, error] = await safe(api().testHelpers.emails.list.query({ limit: 50, ...(to ? { to } : {}) }));
  return (
    <Shell lang={lang}>
      <h1>{t.title}</h1>
      <p className="muted">{t.intro}</p>
      <form className="inline-form" method="get">
        <label htmlFor="to">{t.filter}</label>
        <input id="to" name="to" type="email" defaultValue={to ?? ''} />
        <button type="submit">{t.show}</button>
      </form>
      {error ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : data.items.length === 0 ? (
        <p>{t.empty}</p>
      ) : (
        <ol className="mailbox">
          {data.items.map((m) => (
            <li key={m.id} className="mail" data-template={m.template}>
              <h3>{m.subject}</h3>
              <p className="muted">
                {m.to} · <time dateTime={m.sent_at}>{new Date(m.sent_at).toLocaleString(lang, { timeZone: 'UTC' })} UTC</time> · {m.template} · {m.locale}
              </p>
              <pre className="mail-text">{m.text}</pre>
              <ul>
                {m.links.map((href) => (
                  <li key={href}>
                    <a href={href}>{href}</a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </Shell>
  );
}
