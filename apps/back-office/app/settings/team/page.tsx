import type { Metadata } from 'next';
import { read, requireOperator } from '../../../lib/session';
import { when } from '../../../lib/format';
import { inviteOperator } from '../../team-actions';
import { Form } from '../../_components/form';
import { SettingsNav } from '../settings-nav';
import { DataTable } from '../../_components/data';

export const metadata: Metadata = { title: 'Team' };

/** The marketplace's operators; admins invite more (an email with a link to set a password, valid 7 days). */
export default async function TeamPage() {
  const { api, canWrite } = await requireOperator();
  const { items } = await read(api.operators.list.query({}));
  return (
    <main id="main">
      <h1>Team</h1>
      <SettingsNav current="/settings/team" />
      {canWrite && (
        <section aria-labelledby="invite">
          <h2 id="invite">Invite</h2>
          <Form
            action={inviteOperator}
            name="Invite an operator"
            submit="Send invitation"
            layout="inline"
            success="Invited: the link is on its way (valid 7 days)."
            fields={[
              { name: 'email', label: 'Email', type: 'email', required: true },
              { name: 'role', label: 'Role', type: 'select', options: [{ value: 'viewer', label: 'Viewer (reads everything)' }, { value: 'admin', label: 'Admin (changes everything)' }] },
            ]}
          />
        </section>
      )}
      <h2>Operators</h2>
      <DataTable
        columns={['Email', 'Role', 'Two-factor', 'Since']}
        rows={items.map((o) => ({ key: o.id, cells: [<span className="break">{o.email}</span>, o.role, o.invitation_pending ? 'Invited' : o.totp_enabled ? 'On' : 'Off', when(o.created_at)] }))}
      />
    </main>
  );
}
