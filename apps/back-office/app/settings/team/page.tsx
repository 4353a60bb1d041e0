import type { Metadata } from 'next';
import { read, requireOperator } from '../../../lib/session';
import { when } from '../../../lib/format';
import { inviteOperator, removeOperator, setOperatorRole } from '../../team-actions';
import { Form } from '../../_components/form';
import { SettingsNav } from '../settings-nav';
import { DataTable } from '../../_components/data';
import { FormSection, Section } from '../../_components/section';

export const metadata: Metadata = { title: 'Team' };

/** The marketplace's operators; admins invite more (an email with a link to set a password, valid 7 days). */
export default async function TeamPage() {
  const { api, canWrite, operator } = await requireOperator();
  const { items } = await read(api.operators.list.query({}));
  return (
    <main id="main">
      <h1>Team</h1>
      <SettingsNav current="/settings/team" />
      <FormSection
        id="invite"
        title="Invite"
        shown={canWrite}
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
      <h2>Operators</h2>
      <DataTable
        columns={['Email', 'Role', 'Two-factor', 'Since']}
        rows={items.map((o) => ({ key: o.id, cells: [<span className="break">{o.email}</span>, <span data-role={o.email}>{o.role}</span>, o.invitation_pending ? 'Invited' : o.totp_enabled ? 'On' : 'Off', when(o.created_at)] }))}
      />
      <Section id="change-team" title="Change the team" shown={canWrite}>
        <p className="muted">A role change applies to the operator's next request. The marketplace keeps at least one admin.</p>
        <ul className="cards" aria-label="Operators to change">
          {items.map((o) => (
            <li key={o.id} className="card" data-operator={o.email}>
              <h3 className="break">
                {o.email}
                {o.id === operator.id ? ' (you)' : ''}
              </h3>
              <Form
                action={setOperatorRole}
                name={`Role of ${o.email}`}
                submit="Change role"
                hidden={{ id: o.id }}
                success="Role changed."
                fields={[{ name: 'role', label: 'Role', type: 'select', defaultValue: o.role === 'admin' ? 'viewer' : 'admin', options: [{ value: 'admin', label: 'Admin' }, { value: 'viewer', label: 'Viewer' }] }]}
              />
              <Form
                action={removeOperator}
                name={`Remove ${o.email}`}
                submit="Remove from the team"
                danger
                hidden={{ id: o.id }}
                success="Removed: their sessions have ended."
                fields={[{ name: 'confirm', label: 'Remove them: their sessions end at once', type: 'checkbox', required: true }]}
              />
            </li>
          ))}
        </ul>
      </Section>
    </main>
  );
}
