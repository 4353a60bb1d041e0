import type { Metadata } from 'next';
import { read, requireOperator } from '../../lib/session';
import { setRates } from '../money-actions';
import { Form } from '../_components/form';
import { DataTable } from '../_components/data';
import { Section } from '../_components/section';

export const metadata: Metadata = { title: 'Exchange rates' };

/** The rates in force today (exact, as recorded); admins record new ones from a day on. */
export default async function RatesPage() {
  const { api, canWrite } = await requireOperator();
  const [{ items }, { marketplace }] = await Promise.all([read(api.rates.list.query({})), read(api.settings.get.query({}))]);
  const currencies = (marketplace.currencies as string[] | undefined) ?? ['EUR'];
  const today = new Date().toISOString().slice(0, 10);
  return (
    <main id="main">
      <h1>Exchange rates</h1>
      <h2>In force today</h2>
      {items.length === 0 ? (
        <p>No rates yet: prices are shown only in their own currency.</p>
      ) : (
        <DataTable
          caption="1 base buys this much of the quote currency"
          columns={['Pair', 'Rate', 'Since']}
          rows={items.map((r) => ({ key: `${r.base}${r.quote}`, cells: [`${r.base} → ${r.quote}`, <span data-rate={`${r.base}${r.quote}`}>{String(r.rate)}</span>, r.date] }))}
        />
      )}
      <Section id="set-rates" title="Record rates" shown={canWrite}>
        <p>The listings are repriced in the background. A day set again is replaced.</p>
        <Form
          action={setRates}
          name="Record rates"
          submit="Record rates"
          success="Recorded."
          fields={[
            { name: 'date', label: 'From (YYYY-MM-DD)', required: true, defaultValue: today },
            { name: 'base', label: 'Base currency', type: 'select', defaultValue: currencies[0], options: currencies.map((c) => ({ value: c, label: c })) },
            { name: 'rates', label: 'Rates', required: true, hint: 'CODE=rate, comma-separated, e.g. SEK=11.52, USD=1.05' },
          ]}
        />
      </Section>
    </main>
  );
}
