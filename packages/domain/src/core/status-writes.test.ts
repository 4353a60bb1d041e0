import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * Statuses change only through the state-machine mechanism (core/state-machine.ts), and the
 * generated `onSale` is only read. This reads every source file of the packages and the API and
 * lists any other write: `x.status = …`, `status:` in data handed to the ORM (create, assign,
 * update, upsert, insert), or `update … set status =` / `insert into …(status…)` in SQL. Creating
 * an entity in its machine's initial status (`status: someMachine.initial`) is the one exception.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const SOURCES = ['packages/db/src', 'packages/domain/src', 'packages/jobs/src', 'apps/api/src'];
const MECHANISM = 'packages/domain/src/core/state-machine.ts';
/**
 * Migrations are the schema's history: their SQL may name any column. A payout account's setup
 * status is no machine of ours but a mirror of the provider's account, written in one file only.
 * The local Stripe and Resend servers (`testing/`) play the providers' own objects. A webhook
 * delivery's status (pending, delivered, failed) is the delivery log's bookkeeping of attempts,
 * written in one file only (webhooks.queries.ts), with no transitions a user or the team makes.
 */
const SKIP = /(\.test\.ts$|\.d\.ts$|^packages\/db\/src\/migrations\/|^packages\/domain\/src\/payouts\/payout-accounts\.queries\.ts$|^packages\/domain\/src\/testing\/|^packages\/domain\/src\/webhooks\/webhooks\.queries\.ts$)/;

const GUARDED = new Set(['status', 'onSale']);
const ORM_WRITES = new Set(['create', 'assign', 'merge', 'nativeUpdate', 'update', 'upsert', 'upsertMany', 'insert', 'insertMany']);
/** calls whose second argument is a filter, not data */
const WHERE_SECOND = new Set(['nativeUpdate']);
const SQL_WRITES = [/\bupdate\s+\w+\s+set\s+(?:(?!\bwhere\b)[^;])*?\b(status|on_sale)\s*=/i, /\binsert\s+into\s+\w+\s*\([^)]*\b(status|on_sale)\b/i];

const nameOf = (n: ts.Node | undefined): string | undefined =>
  n && (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n)) ? n.text : n && ts.isComputedPropertyName(n) ? nameOf(n.expression) : undefined;
const calleeName = (call: ts.CallExpression) => (ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : ts.isIdentifier(call.expression) ? call.expression.text : undefined);
const isInitial = (e: ts.Expression) => ts.isPropertyAccessExpression(e) && e.name.text === 'initial';

/** Every write of a status (or of onSale) in one source file, as `file:line what`. */
export function statusWrites(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (n: ts.Node, what: string) => found.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${what}`);
  const visit = (n: ts.Node) => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      const target = ts.isPropertyAccessExpression(n.left) ? n.left.name.text : ts.isElementAccessExpression(n.left) && ts.isStringLiteralLike(n.left.argumentExpression) ? n.left.argumentExpression.text : undefined;
      if (target && GUARDED.has(target)) report(n, `assigns ${target}`);
    }
    if (ts.isCallExpression(n)) {
      const callee = calleeName(n);
      if (callee && ORM_WRITES.has(callee)) {
        n.arguments.forEach((arg, i) => {
          if (!ts.isObjectLiteralExpression(arg) || (i === 1 && WHERE_SECOND.has(callee))) return;
          for (const p of arg.properties) {
            const key = nameOf(p.name);
            if (!key || !GUARDED.has(key)) continue;
            if (ts.isPropertyAssignment(p) && key === 'status' && isInitial(p.initializer) && callee === 'create') continue;
            report(p, `${key} in ${callee}()`);
          }
        });
      }
    }
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) {
      const text = ts.isTemplateExpression(n) ? [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(' ? ') : n.text;
      if (SQL_WRITES.some((re) => re.test(text))) report(n, 'writes status in SQL');
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('statuses change only through the state-machine mechanism', () => {
  test('no source file outside it writes a status (or the generated onSale)', () => {
    const files = SOURCES.flatMap((dir) =>
      readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.tsx?$/.test(f))
        .map((f) => path.posix.join(dir, f.split(path.sep).join('/'))),
    ).filter((f) => f !== MECHANISM && !SKIP.test(f));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => statusWrites(f, readFileSync(path.join(ROOT, f), 'utf8')))).toEqual([]);
  });

  test.each([
    ['l.status = "published";', 'assigns status'],
    ["image['status'] = 'ready';", 'assigns status'],
    ['l.status ??= "draft";', 'assigns status'],
    ['l.onSale = true;', 'assigns onSale'],
    ["em.assign(l, { status: 'closed' });", 'status in assign()'],
    ["Object.assign(l, { title: 'x', status: 'closed' });", 'status in assign()'],
    ["em.create(ListingSchema, { status: 'draft' });", 'status in create()'],
    ["em.nativeUpdate(EmailSchema, { id }, { status: 'sent' });", 'status in nativeUpdate()'],
    ["qb.update({ status: 'closed' });", 'status in update()'],
    ["em.execute(`update listings set title = ?, status = 'closed' where id = ?`);", 'writes status in SQL'],
    ["em.execute('insert into emails (id, status) values (?, ?)');", 'writes status in SQL'],
  ])('catches %s', (code, what) => {
    expect(statusWrites('x.ts', code)).toEqual([`x.ts:1 ${what}`]);
  });

  test.each([
    ["em.count(ListingImageSchema, { listingId, status: 'ready' });"],
    ["em.nativeUpdate(EmailSchema, { status: 'queued' }, { error: null });"],
    ['em.create(ListingSchema, { status: listingMachine.initial });'],
    ["em.execute(`update listings set seller_blocked = ? where status = 'published'`);"],
    ["const done = l.status === 'published';"],
    ["responses[status] = { description: 'No content' };"],
  ])('lets %s through (reads, filters, the initial status)', (code) => {
    expect(statusWrites('x.ts', code)).toEqual([]);
  });
});
