import { beforeAll, describe, expect, test } from 'vitest';
import { emailsTo, signUp, tokenOf, type Harness } from './harness.js';
import { accountsSuite, DAY } from './accounts.suite.js';

/** Users the team makes (the welcome email's sign-in link) and blocks: a blocked user's sessions, passwords and links refused, and restored when unblocked. */
const suite = accountsSuite();
const { call, fresh } = suite;
let h: Harness;
let keys: { secret: string; publishable: string };
beforeAll(() => {
  ({ h, keys } = suite);
});

describe('operator console: team-created users, block and unblock', () => {
  test('users create: welcome email with a sign-in link valid 7 days, in the user language', async () => {
    const email = fresh('team');
    const { user } = await h.console.users.create({ marketplace: 'shop', email, first_name: 'Tove', locale: 'sv' });
    expect(user).toMatchObject({ email, has_password: false, locale: 'sv' });
    const [mail] = await emailsTo(h, keys.secret, email);
    expect(mail).toMatchObject({ template: 'welcome', locale: 'sv', subject: 'Välkommen! Ditt konto är klart' });
    expect(mail!.links[0]).toMatch(/^https:\/\/shop\.example\/sv\/auth\/sign-in\?token=/);
    const token = tokenOf(mail!.links[0]);
    h.clock.advance(7 * DAY - 1000);
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token } })).statusCode).toBe(201);
    h.clock.advance(-(7 * DAY - 1000));

    const late = fresh('team');
    await h.console.users.create({ marketplace: 'shop', email: late });
    const lateToken = tokenOf((await emailsTo(h, keys.secret, late))[0]!.links[0]);
    h.clock.advance(7 * DAY);
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: lateToken } })).json().code).toBe('link_expired');
    h.clock.advance(-7 * DAY);
    await expect(h.console.users.create({ marketplace: 'shop', email: late.toUpperCase() })).rejects.toMatchObject({ cause: { code: 'email_in_use' } });
  });

  test('a blocked user: 403 on /me (sessions ended), password sign-in and link sign-in (link not spent); no link mailed; unblock restores', async () => {
    const email = fresh('blocked');
    const { token: session } = await signUp(h, keys.secret, { email, password: 'password1' });
    await call('POST', '/v1/sessions/email-link', { payload: { email } });
    const link = tokenOf((await emailsTo(h, keys.secret, email))[0]!.links[0]);
    await h.console.users.block({ marketplace: 'shop', email: email.toUpperCase() });
    expect((await call('GET', '/v1/me', { session })).statusCode).toBe(401); // blocking ended it
    const pw = await call('POST', '/v1/sessions', { payload: { email, password: 'password1' } });
    expect(pw.json()).toMatchObject({ status: 403, code: 'user_blocked' });
    expect((await call('POST', '/v1/sessions', { payload: { email, password: 'wrong password' } })).statusCode).toBe(401);
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: link } })).json()).toMatchObject({ status: 403, code: 'user_blocked' });
    const before = (await emailsTo(h, keys.secret, email)).length;
    expect((await call('POST', '/v1/sessions/email-link', { payload: { email } })).statusCode).toBe(202);
    expect(await emailsTo(h, keys.secret, email)).toHaveLength(before);

    await h.console.users.unblock({ marketplace: 'shop', email });
    expect((await call('POST', '/v1/sessions/from-link', { payload: { token: link } })).statusCode).toBe(201);
  });

  test('a session that outlives a block (blocked by another path) answers 403', async () => {
    const email = fresh('blocked');
    const { token: session } = await signUp(h, keys.secret, { email });
    await h.orm.em.getConnection().execute(`update users set blocked_at = now() where email = ?`, [email]);
    expect((await call('GET', '/v1/me', { session })).json()).toMatchObject({ status: 403, code: 'user_blocked' });
  });
});
