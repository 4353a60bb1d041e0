import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { PayoutBreakdown } from '../app/[lang]/orders/[id]/payout-breakdown';

type Order = Parameters<typeof PayoutBreakdown>[0]['order'];
const order = (payout?: Order['payout']): Order =>
  ({
    id: '0190a000-0000-7000-8000-000000000001',
    state: 'received',
    currency: 'SEK',
    total: 100_000,
    ...(payout ? { payout } : {}),
  }) as Order;
const payout: NonNullable<Order['payout']> = { subtotal: 100_000, commission: 10_000, storage_fee: 5800, storage_months: 2, amount: 84_200, currency: 'SEK', status: 'paid' };

describe('PayoutBreakdown', () => {
  test('the seller sees the sale, commission, storage, what they receive and the status, in their language', () => {
    const html = renderToStaticMarkup(createElement(PayoutBreakdown, { order: order(payout), lang: 'sv', viewer: 'seller' }));
    expect(html).toContain('Din utbetalning');
    expect(html).toContain('Förvaring (2 månader)');
    const text = html.replace(/\s/g, ' ');
    expect(text).toContain('<dt>Försäljning</dt><dd>1 000 kr</dd><dt>Provision</dt><dd>− 100 kr</dd><dt>Förvaring (2 månader)</dt><dd>− 58 kr</dd><dt>Du får</dt><dd><strong>842 kr</strong></dd>');
    expect(html).toContain('Utbetald');
  });

  test('no storage line without a fee; nothing for the buyer or an order without a payout', () => {
    const en = renderToStaticMarkup(createElement(PayoutBreakdown, { order: order({ ...payout, storage_fee: 0, storage_months: 0, status: 'waiting_for_payout_details' }), lang: 'en', viewer: 'seller' }));
    expect(en).not.toContain('Storage');
    expect(en).toContain('Waiting for your payout details');
    expect(renderToStaticMarkup(createElement(PayoutBreakdown, { order: order(payout), lang: 'en', viewer: 'buyer' }))).toBe('');
    expect(renderToStaticMarkup(createElement(PayoutBreakdown, { order: order(), lang: 'de', viewer: 'seller' }))).toBe('');
  });
});
