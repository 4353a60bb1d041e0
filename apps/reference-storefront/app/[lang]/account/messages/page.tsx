import { safe } from '@trpc/client';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ApiProblem } from '../../../_components/api-problem';
import { conversationTitle } from './load';
import { Shell } from '../../../_components/shell';
import { apiAs, problemOf } from '../../../../lib/api';
import { countOf, formatDateTime } from '../../../../lib/intl';
import { messages } from '../../../../lib/messages';
import { titled } from '../../../../lib/page-meta';
import { problemText } from '../../../../lib/problems';
import { sessionToken } from '../../../../lib/session';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.inbox.title);

const PAGE = 50;

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ offset?: string }> };

/** The signed-in user's conversations, latest message first, each with what is unread. */
export default async function MessagesPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const offset = Math.max(0, Number.parseInt((await searchParams).offset ?? '0', 10) || 0);
  const back = `/${lang}/account/messages`;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${back}`);
  const t = messages(lang).inbox;
  const [page, error] = await safe(apiAs(token).me.conversations.list.query({ limit: PAGE, offset }));
  if (error && problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${back}`);
  return (
    <Shell lang={lang}>
      <h1>{t.title}</h1>
      <p>
        <Link className="button secondary" href={`${back}/support`}>
          {t.contactSupport}
        </Link>
      </p>
      {error ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : page.items.length === 0 ? (
        <p className="muted">{t.empty}</p>
      ) : (
        <ul className="conversations" aria-label={t.title}>
          {page.items.map((c) => (
            <li key={c.id} className={c.unread > 0 ? 'conversation unread' : 'conversation'} data-testid="conversation">
              <Link href={`${back}/${c.id}`}>
                <span className="conversation-kind" data-testid="conversation-title">
                  {c.listing_image && <img src={c.listing_image.urls.thumb} alt="" width={40} height={40} className="conversation-photo" />}
                  {conversationTitle(c, t)}
                  {c.other_party?.display_name && <span className="muted conversation-party"> · {t.withParty(c.other_party.display_name)}</span>}
                </span>
                {c.unread > 0 && (
                  <span className="badge" data-testid="unread">
                    {countOf(lang, c.unread, t.unread)}
                  </span>
                )}
                <span className="conversation-last">{c.last_message}</span>
                <time className="muted small" dateTime={c.last_message_at}>
                  {formatDateTime(c.last_message_at, lang)}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {page?.items.length === PAGE && (
        <p>
          <Link href={`${back}?offset=${offset + PAGE}`}>{t.more} →</Link>
        </p>
      )}
    </Shell>
  );
}
