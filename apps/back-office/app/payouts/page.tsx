import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../lib/session';
import { money, str, when, words, type Body } from '../../lib/format';
import { retryPayout } from '../money-actions';
import { Form } from '../_components/form';
import { DataTable } from '../_components/data';
import { Section } from '../_components/section';

export const metadata: Metadata = { title: 'Payouts' };

const orderLink = (id: string) => <Link href={`/orders/${id}`}>{id.slice(0, 8)}</Link>;

/** The ledger check as a table (what does not add up, what was paid twice, bank payouts that failed), and the payouts the provider refused, each with a retry for admins. */
export default async function PayoutsPage() {
  const { api, canWrite } = await requireOperator();
  const [report, { items: failed }] = await Promise.all([read(api.payouts.reconcile.query({})), read(api.payouts.failed.query({ limit: 100 }))]);
  return (
    <main id="main">
      <h1>Payouts</h1>
      <Section id="reconcile" title="Reconciliation">
        <p role="status" data-testid="reconcile-ok">
          {report.ok ? 'The ledger adds up.' : 'The ledger does not add up: see below.'} {report.checked} settled orders checked, {report.open} still in flight.
        </p>
        <DataTable
          caption="Orders whose money does not add up (charged − refunds ≠ what was accounted)"
          columns={['Order', 'Charged', 'Refunded', 'Charged back', 'Accounted', 'Why']}
          rows={(report.mismatches as Body[]).map((m) => ({
            key: str(m, 'order_id'),
            cells: [orderLink(str(m, 'order_id')), money(m.charged, m.currency), money(m.refunded, m.currency), money(m.charged_back, m.currency), money(m.accounted, m.currency), str(m, 'why') || '—'],
          }))}
        />
        {report.mismatches.length === 0 && <p className="muted">No mismatches.</p>}
        {report.paid_twice.length > 0 && (
          <>
            <h3>Paid twice</h3>
            <ul>
              {report.paid_twice.map((id) => (
                <li key={id}>{orderLink(id)}</li>
              ))}
            </ul>
          </>
        )}
        <h3>Bank payouts that failed (last 30 days)</h3>
        {report.failed_bank_payouts.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <DataTable
            columns={['Seller', 'Amount', 'Why', 'When']}
            rows={(report.failed_bank_payouts as Body[]).map((p) => ({ key: str(p, 'payout_id'), cells: [<code>{str(p, 'seller_id') || str(p, 'account')}</code>, money(p.amount, p.currency), words(p.failure_code), when(p.at)] }))}
          />
        )}
      </Section>
      <Section id="failed" title="Failed payouts">
        {failed.length === 0 ? (
          <p>No failed payouts.</p>
        ) : (
          <ul className="cards" aria-label="Failed payouts">
            {(failed as Body[]).map((p) => (
              <li key={str(p, 'order_id')} className="card" data-payout={str(p, 'order_id')}>
                <h3>
                  {money(p.amount, p.currency)} · order {orderLink(str(p, 'order_id'))}
                </h3>
                <p>
                  {words(p.reason)} · {when(p.failed_at)}
                  {str(p, 'detail') && (
                    <>
                      <br />
                      <span className="muted">{str(p, 'detail')}</span>
                    </>
                  )}
                </p>
                {canWrite && (
                  <Form
                    action={retryPayout}
                    name={`Retry the payout of order ${str(p, 'order_id').slice(0, 8)}`}
                    submit="Retry"
                    hidden={{ id: str(p, 'order_id') }}
                    success="Back to pending: it is paid in the background."
                    fields={[{ name: 'confirm', label: 'The cause is fixed: pay the seller again', type: 'checkbox', required: true }]}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </main>
  );
}
