import { expect } from 'vitest';
import { emailsTo } from './harness.js';
import { ordersSuite, type Market, type Person } from './orders.suite.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Shared by the messages test files: the orders suite and calls to the conversations endpoints as a user. */
export function messagesSuite() {
  const suite = ordersSuite();
  async function start(m: Market, who: Person, body: Record<string, unknown>): Promise<{ conversation: Json; message: Json }> {
    const res = await suite.call(m, who, 'POST', '/v1/me/conversations', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function post(m: Market, who: Person, id: string, body: string): Promise<Json> {
    const res = await suite.call(m, who, 'POST', `/v1/me/conversations/${id}/messages`, { body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function read(m: Market, who: Person, id: string, query = ''): Promise<Json[]> {
    const res = await suite.call(m, who, 'GET', `/v1/me/conversations/${id}/messages${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items;
  }
  async function list(m: Market, who: Person, query = ''): Promise<Json[]> {
    const res = await suite.call(m, who, 'GET', `/v1/me/conversations${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items;
  }
  const unreadOf = async (m: Market, who: Person, id: string) => (await list(m, who, '?limit=100')).find((c) => c.id === id)?.unread;
  /** the message notices emailed to a user of marketplace `shop` */
  const notices = async (who: Person) => (await emailsTo(suite.h, suite.shop.secret, who.email)).filter((e) => e.template === 'message_notice');
  const now = () => suite.h.clock.now().toISOString();
  return { suite, start, post, read, list, unreadOf, notices, now };
}
