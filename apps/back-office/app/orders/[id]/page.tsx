import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../../lib/session';
import { money, str, when, words, type Body } from '../../../lib/format';
import { TEAM_TRANSITIONS } from '../../../lib/states';
import { transitionOrder } from '../../team-actions';
import { Form } from '../../_components/form';
import { DataTable, Facts } from '../../_components/data';

export const metadata: Metadata = { title: 'Order' };

type Line = { code?: string; label?: string; amount?: number; quantity?: number };
type Step = { transition?: string; from?: string; to?: string; at?: string; actor?: string };

/** One order: its parties, line items, delivery and booking, payment, payout, history; the team's moves, the irreversible ones confirmed. */
export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { api, canWrite } = await requireOperator();
  const { order } = await read(api.orders.get.query({ id }));
  const o = order as Body;
  const currency = str(o, 'currency');
  const lines = (o.line_items as Line[] | undefined) ?? [];
  const history = (o.history as Step[] | undefined) ?? [];
  const payout = o.payout as Body | undefined;
  const booking = o.booking as { date?: string; window?: string } | null;
  const refund = o.refund as Body | null;
  const transfer = o.transfer as Body | null;
  const ledger = (o.ledger as Body[] | undefined) ?? [];
  const moves = ((o.available_transitions as string[] | undefined) ?? []).filter((t) => t in TEAM_TRANSITIONS);
  return (
    <main id="main">
      <p className="back">
        <Link href="/orders">← Orders</Link>
      </p>
      <h1>Order {id.slice(0, 8)}</h1>
      <Facts
        items={[
          ['State', <span data-testid="order-state">{`${words(o.state)} (since ${when(o.state_entered_at)})`}</span>],
          ['Total', money(o.total, currency)],
          ['Listing', <Link href={`/listings/${str(o, 'listing_id')}`}>{str(o, 'listing_id')}</Link>],
          ['Buyer', <Link href={`/orders?buyer=${str(o, 'buyer_id')}`}><code>{str(o, 'buyer_id')}</code></Link>],
          ['Seller', <Link href={`/orders?seller=${str(o, 'seller_id')}`}><code>{str(o, 'seller_id')}</code></Link>],
          ['Sent by', words(o.fulfilment)],
          ['Delivery booking', booking ? `${booking.date ?? ''} ${booking.window ?? ''}` : 'None'],
          ['Payment', `${str(o.payment as Body, 'provider')} ${str(o.payment as Body, 'id')}`],
          !!refund && ['Refund', `${str(refund, 'id')} ${when(refund.at)}`],
          !!o.chargeback && ['Chargeback', words((o.chargeback as Body).status)],
        ]}
      />
      <h2>Line items</h2>
      <DataTable columns={['Item', 'Amount']} rows={lines.map((l, n) => ({ key: String(n), cells: [`${l.label ?? words(l.code)}${l.quantity && l.quantity > 1 ? ` × ${l.quantity}` : ''}`, money(l.amount, currency)] }))} />
      <h2>Payout</h2>
      {payout ? (
        <Facts
          items={[
            ['Status', words(payout.status)],
            ['To the seller', money(payout.amount, payout.currency)],
            ['Commission', money(payout.commission, payout.currency)],
            !!transfer && ['Transfer', `${str(transfer, 'id')} ${when(transfer.at)}`],
          ]}
        />
      ) : (
        <p className="muted">No payout (yet).</p>
      )}
      <h2>Ledger</h2>
      {ledger.length === 0 ? (
        <p className="muted">No money has moved yet.</p>
      ) : (
        <DataTable
          caption="Every money movement of the order, oldest first (read-only)"
          columns={['Kind', 'Amount', 'Reference', 'When']}
          rows={ledger.map((r) => ({ key: str(r, 'id'), cells: [words(r.kind), money(r.amount, r.currency), <code className="break">{str(r, 'reference')}</code>, when(r.created_at)] }))}
        />
      )}
      <h2>History</h2>
      <ol>
        {history.map((h, n) => (
          <li key={n}>
            {when(h.at)}: {words(h.transition)} → {words(h.to)} ({h.actor})
          </li>
        ))}
      </ol>
      {canWrite && moves.length > 0 && (
        <>
          <h2>Move the order</h2>
          <div className="actions">
            {moves.map((t) => {
              const move = TEAM_TRANSITIONS[t]!;
              return (
                <section key={t} aria-label={move.label}>
                  <Form
                    action={transitionOrder}
                    name={move.label}
                    submit={move.label}
                    danger={move.danger}
                    hidden={{ id, transition: t, ...(move.irreversible ? { irreversible: '1' } : {}) }}
                    success="Done."
                    fields={move.irreversible ? [{ name: 'confirm', label: 'I understand this cannot be undone', type: 'checkbox', required: true }] : []}
                  />
                </section>
              );
            })}
          </div>
        </>
      )}
    </main>
  );
}
