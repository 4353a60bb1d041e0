import { safe } from '@trpc/client';
import Link from 'next/link';
import { api, type ApiOutputs } from '../../lib/api';
import { problemText } from '../../lib/problems';
import { ApiProblem } from './api-problem';

type Category = ApiOutputs['categories']['list']['items'][number];
type ByParent = Map<string | undefined, Category[]>;

export async function Categories({ lang }: { lang: string }) {
  const [data, error] = await safe(api().categories.list.query({ locale: lang }));
  if (error) return <ApiProblem detail={problemText(error, lang)} />;
  if (data.items.length === 0) return <p className="muted">No categories yet.</p>;
  // The API lists parents before children and siblings by position; grouping keeps that order.
  return <Branch lang={lang} parentId={undefined} byParent={Map.groupBy(data.items, (c) => c.parent_id)} />;
}

function Branch({ lang, parentId, byParent }: { lang: string; parentId: string | undefined; byParent: ByParent }) {
  const items = byParent.get(parentId);
  if (!items) return null;
  return (
    <ul className="tree">
      {items.map((category) => (
        <li key={category.id}>
          <Link href={`/${lang}/search?category=${category.id}`}>{category.name}</Link>
          <Branch lang={lang} parentId={category.id} byParent={byParent} />
        </li>
      ))}
    </ul>
  );
}
