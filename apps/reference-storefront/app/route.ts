import { safe } from '@trpc/client';
import { redirect } from 'next/navigation';
import { getMarketplace } from '../lib/api';
import { problemText } from '../lib/problems';

export const dynamic = 'force-dynamic';

/** `/` has no page of its own: every page lives under a language, and the marketplace's first is its default. */
export async function GET() {
  const [marketplace, error] = await safe(getMarketplace());
  // Plain text: this route sits outside the [lang] root layout, and a 502 says the API behind us failed.
  if (error) return new Response(problemText(error, 'en'), { status: 502, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const lang = marketplace.locales[0];
  if (!lang) return new Response('This shop has no language set up yet.', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  redirect(`/${lang}`);
}
