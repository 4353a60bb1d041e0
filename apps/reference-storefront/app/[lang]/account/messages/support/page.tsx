import { redirect } from 'next/navigation';
import { Shell } from '../../../../_components/shell';
import { messages } from '../../../../../lib/messages';
import { titled } from '../../../../../lib/page-meta';
import { sessionToken } from '../../../../../lib/session';
import { MessageBox } from '../message-box';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.inbox.supportTitle);

type Props = { params: Promise<{ lang: string }> };

/** Asking the shop's team: the first message opens the user's support conversation (or continues it). */
export default async function SupportPage({ params }: Props) {
  const { lang } = await params;
  const back = `/${lang}/account/messages/support`;
  if (!(await sessionToken())) redirect(`/${lang}/auth/sign-in?next=${back}`);
  const t = messages(lang).inbox;
  return (
    <Shell lang={lang}>
      <h1>{t.supportTitle}</h1>
      <p>{t.supportText}</p>
      <MessageBox lang={lang} name={t.supportForm} subject={{ support: 'true' }} back={back} />
    </Shell>
  );
}
