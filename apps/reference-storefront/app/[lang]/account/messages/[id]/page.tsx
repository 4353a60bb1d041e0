import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { ApiProblem } from '../../../../_components/api-problem';
import { Shell } from '../../../../_components/shell';
import { apiAs, problemOf } from '../../../../../lib/api';
import { formatDateTime } from '../../../../../lib/intl';
import { messages } from '../../../../../lib/messages';
import { titled } from '../../../../../lib/page-meta';
import { problemText } from '../../../../../lib/problems';
import { currentUser, sessionToken } from '../../../../../lib/session';
import { conversationTitle, findConversation, loadThread, type Conversation, type Message } from '../load';
import { MessageBox } from '../message-box';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.inbox.threadTitle);

type Props = { params: Promise<{ lang: string; id: string }> };

/** Who wrote a message, as the viewer sees it: themselves, support, or the other party by role. */
function author(m: Message, c: Conversation | undefined, me: string | undefined, t: ReturnType<typeof messages>['inbox']): string {
  if (m.from_marketplace) return t.support;
  if (m.sender_id && m.sender_id === me) return t.you;
  // the other party by their name; by their role when they have none
  if (c?.other_party?.display_name && m.sender_id === c.other_party.id) return c.other_party.display_name;
  if (m.sender_id === c?.user_b) return t.seller;
  return c?.kind === 'order' ? t.buyer : t.asker;
}

/**
 * One conversation (where the notice emails link): the whole thread oldest first — reading it marks
 * it read — what it is about, and the reply box. Anyone but its two parties gets the 404 page.
 */
export default async function ConversationPage({ params }: Props) {
  const { lang, id } = await params;
  const back = `/${lang}/account/messages/${id}`;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${back}`);
  const client = apiAs(token);
  const t = messages(lang).inbox;
  const [[thread, error], conversation, user] = await Promise.all([loadThread(client, id).then((items) => [items, undefined] as const, (e: unknown) => [undefined, e] as const), findConversation(client, { id }), currentUser()]);
  const status = error && problemOf(error)?.status;
  if (status === 401) redirect(`/${lang}/auth/sign-in?next=${back}`);
  if (status === 404 || status === 422) notFound();
  const listingTitle = conversation?.listing_title;
  return (
    <Shell lang={lang}>
      <p>
        <Link href={`/${lang}/account/messages`}>← {t.back}</Link>
      </p>
      <h1>{conversation ? conversationTitle(conversation, t) : t.threadTitle}</h1>
      {conversation?.other_party?.display_name && <p className="muted">{t.withParty(conversation.other_party.display_name)}</p>}
      {conversation?.kind === 'listing' && conversation.listing_id && (
        <p>
          <Link href={`/${lang}/listings/${conversation.listing_id}`}>{listingTitle ? `${t.threadAbout.listing}: ${listingTitle}` : t.threadAbout.listing}</Link>
        </p>
      )}
      {conversation?.kind === 'order' && conversation.order_id && (
        <p>
          <Link href={`/${lang}/orders/${conversation.order_id}`}>{t.threadAbout.order}</Link>
        </p>
      )}
      {conversation?.kind === 'support' && <p className="muted">{t.threadAbout.support}</p>}
      {error || !thread ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : thread.length === 0 ? (
        <p className="muted">{t.noMessages}</p>
      ) : (
        <ol className="thread" aria-label={t.threadTitle}>
          {thread.map((m, i) => (
            <li key={m.id} id={i === thread.length - 1 ? 'latest' : undefined} className={m.from_marketplace ? 'message from-support' : 'message'} data-testid="message">
              <p className="message-meta">
                <strong>{author(m, conversation, user?.id, t)}</strong>{' '}
                <time className="muted small" dateTime={m.at}>
                  {formatDateTime(m.at, lang)}
                </time>
              </p>
              <p className="message-body">{m.body}</p>
            </li>
          ))}
        </ol>
      )}
      {!error && <MessageBox lang={lang} name={t.replyForm} conversation={id} />}
    </Shell>
  );
}
