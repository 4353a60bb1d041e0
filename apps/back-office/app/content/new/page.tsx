import { notFound, redirect } from 'next/navigation';

/** The "new page or language" search form's target: the editor of that page (empty until saved). */
export default async function NewPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const { slug = '', locale = '' } = await searchParams;
  const s = slug.trim().toLowerCase();
  const l = locale.trim();
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s) || !/^[A-Za-z0-9-]{1,35}$/.test(l)) notFound();
  redirect(`/content/pages/${s}/${l}`);
}
