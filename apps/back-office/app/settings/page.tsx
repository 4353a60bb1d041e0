import type { Metadata } from 'next';
import { read, requireOperator } from '../../lib/session';
import { type Body } from '../../lib/format';
import { updateSettings } from '../team-actions';
import { Form, type Field } from '../_components/form';
import { SettingsNav } from './settings-nav';
import { Facts } from '../_components/data';

export const metadata: Metadata = { title: 'Settings' };

const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '');
const textOf = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The marketplace's settings: a form for admins (checked by the API as a whole, each problem at its field), the same values read-only for viewers. */
export default async function SettingsPage() {
  const { api, canWrite } = await requireOperator();
  const { marketplace } = await read(api.settings.get.query({}));
  const m = marketplace as Body;
  const rules = (m.listings ?? {}) as Body;
  const fields: Field[] = [
    { name: 'name', label: 'Name', defaultValue: textOf(m.name), required: true },
    { name: 'currencies', label: 'Currencies', defaultValue: list(m.currencies), hint: 'ISO codes, comma-separated; the first is the default.' },
    { name: 'locales', label: 'Languages', defaultValue: list(m.locales), hint: 'Language tags, comma-separated; the first is the default.' },
    { name: 'commission_percent', label: 'Commission (%)', inputMode: 'decimal', defaultValue: textOf(m.commission_percent) },
    { name: 'storefront_url', label: 'Storefront URL', type: 'text', defaultValue: textOf(m.storefront_url) },
    { name: 'alert_email', label: 'Alert email', type: 'email', defaultValue: textOf(m.alert_email), hint: 'Where the team is emailed about failed payouts; empty: none.' },
    { name: 'newsletter_audience_id', label: 'Newsletter audience', defaultValue: textOf(m.newsletter_audience_id), hint: 'The Resend audience id newsletter sign-ups join; empty: none.' },
    { name: 'require_approval', label: 'New listings need the team’s approval', type: 'checkbox', defaultValue: rules.require_approval ? 'on' : '' },
    { name: 'valuations', label: 'Sellers may ask for a valuation', type: 'checkbox', defaultValue: rules.valuations ? 'on' : '' },
    { name: 'min_images', label: 'Photos a listing needs', inputMode: 'numeric', defaultValue: textOf(rules.min_images) },
    { name: 'shipping', label: 'Shipping table (sizes, zones, prices, booking) as JSON', type: 'textarea', rows: 10, defaultValue: m.shipping ? JSON.stringify(m.shipping, null, 2) : '' },
  ];
  return (
    <main id="main">
      <h1>Settings</h1>
      <SettingsNav current="/settings" />
      {canWrite ? (
        <Form action={updateSettings} name="Marketplace settings" submit="Save settings" success="Saved." fields={fields} />
      ) : (
        <Facts items={fields.map((f) => [f.label, f.type === 'checkbox' ? (f.defaultValue ? 'Yes' : 'No') : f.name === 'shipping' ? <pre className="break">{f.defaultValue}</pre> : f.defaultValue || '—'])} />
      )}
    </main>
  );
}
