import type { Metadata } from 'next';
import { read, requireOperator } from '../../lib/session';
import { money, str, when, type Body } from '../../lib/format';
import { createVoucher } from '../money-actions';
import { DataTable } from '../_components/data';
import { FormSection } from '../_components/section';

export const metadata: Metadata = { title: 'Vouchers' };

/** The marketplace's voucher codes with their uses, newest first; admins create more. */
export default async function VouchersPage() {
  const { api, canWrite } = await requireOperator();
  const [{ items }, { marketplace }] = await Promise.all([read(api.vouchers.list.query({})), read(api.settings.get.query({}))]);
  const currencies = (marketplace.currencies as string[] | undefined) ?? ['EUR'];
  return (
    <main id="main">
      <h1>Vouchers</h1>
      <FormSection
        id="new-voucher"
        title="New voucher"
        shown={canWrite}
        action={createVoucher}
        name="Create a voucher"
        submit="Create voucher"
        success="Created: buyers can use the code now."
        fields={[
          { name: 'code', label: 'Code', required: true, hint: 'Letters, digits, - and _; buyers type it in any case.' },
          { name: 'kind', label: 'Discount', type: 'select', options: [{ value: 'percent', label: 'Percent off the items' }, { value: 'amount', label: 'Fixed amount off the items' }] },
          { name: 'value', label: 'Percent or amount', inputMode: 'decimal', required: true, hint: 'e.g. 10 (percent) or 50.00 (amount)' },
          { name: 'currency', label: 'Currency (for an amount or a minimum)', type: 'select', options: [{ value: '', label: 'None' }, ...currencies.map((c) => ({ value: c, label: c }))] },
          { name: 'min_total', label: 'Minimum order (optional)', inputMode: 'decimal' },
          { name: 'ends_at', label: 'Valid until before (optional, YYYY-MM-DD)' },
          { name: 'max_uses', label: 'Uses in all (optional)', inputMode: 'numeric' },
          { name: 'once_per_buyer', label: 'Once per buyer', type: 'checkbox' },
        ]}
      />
      <h2>Codes</h2>
      {items.length === 0 ? (
        <p>No vouchers yet.</p>
      ) : (
        <DataTable
          columns={['Code', 'Discount', 'Minimum', 'Valid until', 'Uses', 'Created']}
          rows={(items as Body[]).map((v) => ({
            key: str(v, 'id'),
            cells: [
              <code data-voucher={str(v, 'code')}>{str(v, 'code')}</code>,
              typeof v.percent === 'number' ? `${v.percent} %` : money(v.amount, v.currency),
              typeof v.min_total === 'number' ? money(v.min_total, v.currency) : '—',
              v.ends_at ? when(v.ends_at) : 'No end',
              `${v.uses ?? 0}${typeof v.max_uses === 'number' ? ` of ${v.max_uses}` : ''}${v.once_per_buyer ? ' (once per buyer)' : ''}`,
              when(v.created_at),
            ],
          }))}
        />
      )}
    </main>
  );
}
