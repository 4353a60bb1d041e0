import { safe } from '@trpc/client';
import { api } from '../../lib/api';
import { problemText } from '../../lib/problems';
import { displayName } from '../../lib/intl';
import { messages } from '../../lib/messages';
import { textIn } from '../../lib/shipping-texts';
import { ApiProblem } from './api-problem';

export async function Locations({ lang }: { lang: string }) {
  const t = messages(lang).home;
  const [data, error] = await safe(api().locations.list.query({}));
  if (error) return <ApiProblem detail={problemText(error, lang)} />;
  if (data.items.length === 0) return <p className="muted">{t.noLocations}</p>;
  return (
    <ul className="cards">
      {data.items.map((site) => (
        <li key={site.id} className="card">
          <h3>{site.name}</h3>
          <p className="muted">{t.siteKinds[site.kind]}</p>
          <address>
            {site.line1}
            <br />
            {site.postal_code} {site.city}
            <br />
            {displayName(lang, 'region', site.country)}
          </address>
          {textIn(site.opening_hours_by_language, lang, site.opening_hours) && <p className="hours">{textIn(site.opening_hours_by_language, lang, site.opening_hours)}</p>}
        </li>
      ))}
    </ul>
  );
}
