import { expect } from 'vitest';
import type { SellingSuite } from './selling.suite.js';

/** Shared by the back-office test files: calls at /console/v1 and operators signed in over HTTP. */
export type Op = { token: string; id: string; email: string };
export type ConsoleMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AuditRow = { action: string; actor: { type: string; id?: string; email?: string }; target: { type: string; id: string }; data: Record<string, unknown> };

export function consoleClient(s: SellingSuite) {
  /** through the harness: every answer is checked against the console's own OpenAPI document */
  const call = (method: ConsoleMethod, url: string, token?: string, payload?: unknown, headers: Record<string, string> = {}) =>
    s.h.request({ method: method as 'GET', url, ...(token ? { key: token } : {}), headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

  /** Invites through the command line's definition, accepts over HTTP: a signed-in operator. */
  async function operator(slug: string, email: string, role: 'admin' | 'viewer'): Promise<Op> {
    const out = await s.h.console.operators.create({ marketplace: slug, email, role });
    const token = new URL(out.invitation_url).searchParams.get('token')!;
    const res = await call('POST', '/console/v1/invitations/accept', undefined, { token, password: 'correct horse battery' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^ops_/);
    expect(body.operator).toMatchObject({ email, role });
    return { token: body.token, id: body.operator.id, email };
  }

  /** The whole audit trail as `token` sees it, newest first. */
  async function auditRows(token: string): Promise<AuditRow[]> {
    const rows: AuditRow[] = [];
    let cursor: string | undefined;
    do {
      const res = await call('GET', `/console/v1/audit?limit=100${cursor ? `&cursor=${cursor}` : ''}`, token);
      expect(res.statusCode, res.body).toBe(200);
      rows.push(...res.json().items);
      cursor = res.json().next_cursor;
    } while (cursor);
    return rows;
  }

  return { call, operator, auditRows };
}
