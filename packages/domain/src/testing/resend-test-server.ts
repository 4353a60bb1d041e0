import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * Test support: a local server speaking the part of Resend's HTTP API our adapters use, so the real
 * `resend` package is exercised without a network: `POST /emails` (with `Idempotency-Key` replays)
 * for the mailer, and contacts for the newsletter — one contact per address for the whole account
 * (`POST /contacts` with `segments`, `GET /contacts/{id or email}`, 409 for an address that exists),
 * segments (the former audiences: `POST /contacts/{email}/segments/{id}`, `GET /segments/{id}/contacts`
 * paged with `limit`/`after`/`has_more`). Errors come in Resend's shape `{statusCode, name, message}`;
 * faults can be injected to play an outage. Only for tests; it keeps everything in memory.
 */
export interface ResendTestServer {
  url: string;
  apiKey: string;
  /** what an email id holds as sent */
  email(id: string): { from: string; to: string; subject: string; text: string; html: string } | undefined;
  /** the contacts of a segment (audience), in the order they joined it */
  segment(id: string): { id: string; email: string; first_name: string | null }[];
  /** a segment to file contacts into (as made in Resend's dashboard) */
  createSegment(name: string): string;
  /** the next `count` API requests fail with this status (500, 503, 429, 422 …) */
  failNext(count: number, status: number): void;
  /** a sending domain as Resend lists it (`GET /domains`), with its verification status (again: its status changes) */
  addDomain(name: string, status: 'verified' | 'pending' | 'not_started' | 'failed'): void;
  /** how many contact-creating requests arrived (a retry that found its contact creates none) */
  contactCreations(): number;
  close(): Promise<void>;
}

interface StoredContact {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  unsubscribed: boolean;
  created_at: string;
}

const ERROR_NAMES: Record<number, string> = { 400: 'validation_error', 401: 'missing_api_key', 404: 'not_found', 409: 'validation_error', 422: 'validation_error', 429: 'rate_limit_exceeded' };

class Failure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startResendTestServer(opts: { apiKey?: string; pageSize?: number } = {}): Promise<ResendTestServer> {
  const apiKey = opts.apiKey ?? `re_test_${randomUUID().replaceAll('-', '')}`;
  const emails = new Map<string, { from: string; to: string; subject: string; text: string; html: string }>();
  const emailByKey = new Map<string, string>();
  const contacts = new Map<string, StoredContact>(); // by id
  const segments = new Map<string, { name: string; members: string[] }>(); // contact ids in joining order
  const faults: number[] = [];
  const domains: { id: string; name: string; status: string; created_at: string; region: string; capabilities: { sending: string; receiving: string } }[] = [];
  let creations = 0;

  const contactOf = (idOrEmail: string) => contacts.get(idOrEmail) ?? [...contacts.values()].find((c) => c.email === idOrEmail.toLowerCase());
  const segmentOf = (id: string) => {
    const s = segments.get(id);
    if (!s) throw new Failure(404, 'Segment not found');
    return s;
  };
  const join = (segmentId: string, contactId: string) => {
    const s = segmentOf(segmentId);
    if (!s.members.includes(contactId)) s.members.push(contactId);
  };

  function route(method: string, path: string, query: URLSearchParams, headers: Record<string, string | string[] | undefined>, json: Record<string, unknown>): [number, unknown] {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/emails') {
      const key = String(headers['idempotency-key'] ?? '');
      const existing = key ? emailByKey.get(key) : undefined;
      if (existing) return [200, { id: existing }];
      const id = randomUUID();
      if (key) emailByKey.set(key, id);
      emails.set(id, { from: String(json.from), to: (json.to as string[])[0]!, subject: String(json.subject), text: String(json.text), html: String(json.html) });
      return [200, { id }];
    }
    if (method === 'GET' && path === '/domains') return [200, { object: 'list', has_more: false, data: domains }];
    if (method === 'POST' && path === '/contacts') {
      creations++;
      const email = String(json.email ?? '').toLowerCase();
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new Failure(422, 'Invalid `email` field.');
      if (contactOf(email)) throw new Failure(409, 'Contact already exists.');
      const wanted = ((json.segments as { id: string }[] | undefined) ?? []).map((s) => s.id);
      wanted.forEach(segmentOf); // an unknown segment refuses the whole request
      const c: StoredContact = { id: randomUUID(), email, first_name: (json.first_name as string | undefined) ?? null, last_name: null, unsubscribed: Boolean(json.unsubscribed), created_at: new Date().toISOString() };
      contacts.set(c.id, c);
      wanted.forEach((s) => join(s, c.id));
      return [201, { object: 'contact', id: c.id }];
    }
    if (method === 'GET' && (m = /^\/contacts\/([^/]+)$/.exec(path))) {
      const c = contactOf(m[1]!);
      if (!c) throw new Failure(404, 'Contact not found');
      return [200, { object: 'contact', ...c, properties: {} }];
    }
    if (method === 'POST' && (m = /^\/contacts\/([^/]+)\/segments\/([^/]+)$/.exec(path))) {
      const c = contactOf(m[1]!);
      if (!c) throw new Failure(404, 'Contact not found');
      join(m[2]!, c.id);
      return [200, { id: m[2]! }];
    }
    if (method === 'GET' && (m = /^\/segments\/([^/]+)\/contacts$/.exec(path))) {
      const members = segmentOf(m[1]!).members;
      const limit = Math.min(Number(query.get('limit') ?? 20), opts.pageSize ?? 100);
      const after = query.get('after');
      const start = after ? members.indexOf(after) + 1 : 0;
      const page = members.slice(start, start + limit);
      return [200, { object: 'list', data: page.map((id) => contacts.get(id)!), has_more: start + limit < members.length }];
    }
    throw new Failure(404, `No route ${method} ${path}`);
  }

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const reply = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      const fail = (status: number, message: string) => reply(status, { statusCode: status, name: ERROR_NAMES[status] ?? (status >= 500 ? 'internal_server_error' : 'application_error'), message });
      if (req.headers.authorization !== `Bearer ${apiKey}`) return fail(401, 'API key is invalid');
      const fault = faults.shift();
      if (fault !== undefined) return fail(fault, 'injected');
      const url = new URL(req.url ?? '/', 'http://resend.test');
      try {
        const [status, json] = route(req.method ?? 'GET', decodeURIComponent(url.pathname), url.searchParams, req.headers, body ? (JSON.parse(body) as Record<string, unknown>) : {});
        reply(status, json);
      } catch (e) {
        if (e instanceof Failure) fail(e.status, e.message);
        else fail(500, (e as Error).message);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    email: (id) => emails.get(id),
    segment: (id) => segmentOf(id).members.map((cid) => {
      const c = contacts.get(cid)!;
      return { id: c.id, email: c.email, first_name: c.first_name };
    }),
    createSegment(name) {
      const id = randomUUID();
      segments.set(id, { name, members: [] });
      return id;
    },
    failNext(count, status) {
      for (let i = 0; i < count; i++) faults.push(status);
    },
    contactCreations: () => creations,
    addDomain(name, status) {
      const known = domains.findIndex((d) => d.name === name);
      if (known >= 0) return void (domains[known]!.status = status);
      domains.push({ id: randomUUID(), name, status, created_at: new Date().toISOString(), region: 'eu-west-1', capabilities: { sending: 'enabled', receiving: 'disabled' } });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
