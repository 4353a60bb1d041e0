import type { Metadata } from 'next';
import { read, requireOperator } from '../../lib/session';
import { str, when, type Body } from '../../lib/format';
import { blockUser, createUser } from '../team-actions';
import { Form } from '../_components/form';
import { FilterField } from '../_components/data';
import { FormSection } from '../_components/section';

export const metadata: Metadata = { title: 'Users' };

/** Users by exact email address (any case), else the newest 50; admins block and unblock. */
export default async function UsersPage({ searchParams }: { searchParams: Promise<{ email?: string }> }) {
  const { api, canWrite } = await requireOperator();
  const email = ((await searchParams).email ?? '').trim();
  const { items } = await read(api.users.list.query({ ...(email ? { email } : {}), limit: 50 }));
  return (
    <main id="main">
      <h1>Users</h1>
      <FormSection
        id="new-user"
        title="New user"
        shown={canWrite}
        action={createUser}
        name="Create a user"
        submit="Create and send the welcome email"
        success="Created: the welcome email with a sign-in link (valid 7 days) is on its way."
        fields={[
          { name: 'email', label: 'Email', type: 'email', required: true },
          { name: 'first_name', label: 'First name (optional)' },
          { name: 'last_name', label: 'Last name (optional)' },
          { name: 'locale', label: 'Language (optional, e.g. en)' },
        ]}
      />
      <form className="form inline" aria-label="Find a user" method="get" role="search">
        <FilterField id="users-email" name="email" label="Email address" type="search" value={email} />
        <button type="submit">Find</button>
      </form>
      {items.length === 0 ? (
        <p>{email ? `No user has the address ${email}.` : 'No users yet.'}</p>
      ) : (
        <ul className="cards" aria-label={email ? 'Found' : 'Newest users'}>
          {(items as Body[]).map((u) => (
            <li key={str(u, 'id')} className="card" data-user={str(u, 'email')}>
              <h2 className="break">{str(u, 'email')}</h2>
              <p>
                {[str(u, 'first_name'), str(u, 'last_name')].filter(Boolean).join(' ') || 'No name'} · joined {when(u.created_at)}
                <br />
                <span className="muted">
                  <code>{str(u, 'id')}</code>
                </span>
                <br />
                <strong>{u.blocked ? 'Blocked' : 'Active'}</strong>
              </p>
              {canWrite && (
                <Form
                  action={blockUser}
                  name={`${u.blocked ? 'Unblock' : 'Block'} ${str(u, 'email')}`}
                  submit={u.blocked ? 'Unblock' : 'Block'}
                  danger={!u.blocked}
                  hidden={{ id: str(u, 'id'), do: u.blocked ? 'unblock' : 'block' }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
