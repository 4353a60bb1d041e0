import type { Metadata } from 'next';
import { read, requireOperator } from '../../../lib/session';
import { when } from '../../../lib/format';
import { revokeKey } from '../../team-actions';
import { CreateKeyForm } from './create-key-form';
import { Form } from '../../_components/form';
import { SettingsNav } from '../settings-nav';
import { DataTable } from '../../_components/data';
import { Section } from '../../_components/section';

export const metadata: Metadata = { title: 'API keys' };

/** The marketplace's API keys (hints only); admins create one (its secret shown this once) and revoke. */
export default async function KeysPage() {
  const { api, canWrite } = await requireOperator();
  const { items } = await read(api.keys.list.query({}));
  return (
    <main id="main">
      <h1>API keys</h1>
      <SettingsNav current="/settings/keys" />
      <Section id="new-key" title="New key" shown={canWrite}>
        <CreateKeyForm />
      </Section>
      <h2>Keys</h2>
      <DataTable
        columns={['Key', 'Kind', 'Created', 'Status']}
        rows={items.map((k) => ({
          key: k.id,
          cells: [<code>{k.hint}</code>, k.kind, when(k.created_at), k.revoked_at ? `Revoked ${when(k.revoked_at)}` : canWrite ? <Form action={revokeKey} name={`Revoke ${k.hint}`} submit="Revoke" danger hidden={{ id: k.id }} /> : 'Active'],
        }))}
      />
    </main>
  );
}
