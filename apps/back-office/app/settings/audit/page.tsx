import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../../lib/session';
import { when } from '../../../lib/format';
import { SettingsNav } from '../settings-nav';
import { DataTable, FilterField } from '../../_components/data';

export const metadata: Metadata = { title: 'Audit trail' };

type Filters = Partial<Record<'operator' | 'action' | 'target_type' | 'target_id' | 'from' | 'to' | 'cursor', string>>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `2026-11-28` or `2026-11-28T10:00` (a date input) → an ISO time the API takes, UTC. */
const isoOf = (v: string | undefined) => (v && !Number.isNaN(Date.parse(`${v.length === 10 ? `${v}T00:00` : v}Z`)) ? new Date(`${v.length === 10 ? `${v}T00:00` : v}Z`).toISOString() : undefined);

/** Every change and sign-in, newest first, with filters (operator, action, target, dates in UTC). */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Filters> }) {
  const { api } = await requireOperator();
  const q = await searchParams;
  const { items: team } = await read(api.operators.list.query({}));
  const from = isoOf(q.from);
  const to = isoOf(q.to);
  const page = await read(
    api.audit.list.query({
      limit: 50,
      ...(q.cursor ? { cursor: q.cursor } : {}),
      ...(q.operator && UUID.test(q.operator) ? { operator: q.operator } : {}),
      ...(q.action ? { action: q.action.slice(0, 100) } : {}),
      ...(q.target_type ? { target_type: q.target_type.slice(0, 50) } : {}),
      ...(q.target_id ? { target_id: q.target_id.slice(0, 254) } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
    }),
  );
  const next = new URLSearchParams(Object.entries(q).filter(([k, v]) => k !== 'cursor' && v) as [string, string][]);
  if (page.next_cursor) next.set('cursor', page.next_cursor);
  return (
    <main id="main">
      <h1>Audit trail</h1>
      <SettingsNav current="/settings/audit" />
      <form className="form inline" aria-label="Filter the audit trail" method="get">
        <div className="field">
          <label htmlFor="audit-operator">Operator</label>
          <select id="audit-operator" name="operator" defaultValue={q.operator ?? ''}>
            <option value="">Anyone</option>
            {team.map((o) => (
              <option key={o.id} value={o.id}>
                {o.email}
              </option>
            ))}
          </select>
        </div>
        <FilterField id="audit-action" name="action" label="Action" value={q.action} placeholder="listing.approve" />
        <FilterField id="audit-target-type" name="target_type" label="Target type" value={q.target_type} placeholder="listing" />
        <FilterField id="audit-target-id" name="target_id" label="Target id" value={q.target_id} />
        <FilterField id="audit-from" name="from" label="From (UTC)" type="date" value={q.from} />
        <FilterField id="audit-to" name="to" label="Before (UTC)" type="date" value={q.to} />
        <button type="submit">Filter</button>
      </form>
      {page.items.length === 0 ? (
        <p>Nothing recorded{Object.keys(q).length ? ' for these filters' : ''}.</p>
      ) : (
        <DataTable
          columns={['When', 'Who', 'Action', 'Target', 'Input']}
          rows={page.items.map((e) => ({
            key: e.id,
            cells: [
              when(e.at),
              <span className="break">{e.actor.type === 'cli' ? 'command line' : (e.actor.email ?? e.actor.id)}</span>,
              <code>{e.action}</code>,
              <span className="break">
                {e.target.type} <code>{e.target.id}</code>
              </span>,
              <code className="break">{Object.keys(e.data).length ? JSON.stringify(e.data) : ''}</code>,
            ],
          }))}
        />
      )}
      {page.next_cursor && (
        <p className="pager">
          <Link href={`/settings/audit?${next}`}>Older entries</Link>
        </p>
      )}
    </main>
  );
}
