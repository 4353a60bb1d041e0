import { excerpt } from './cases.js';
import type { Failure } from './check.js';

/**
 * The failures as two compact tables: classes across operations (what to fix), then each distinct
 * failure per operation with one request that reproduces it (what to re-run).
 */
export function failureReport(failures: Failure[], run: { seed: number; count: number }, opts: { perOperation: boolean } = { perOperation: true }): string {
  if (failures.length === 0) return '';
  const group = <K extends string>(key: (f: Failure) => K) => {
    const groups = new Map<K, Failure[]>();
    for (const f of failures) groups.set(key(f), [...(groups.get(key(f)) ?? []), f]);
    return [...groups.values()].sort((a, b) => b.length - a.length);
  };
  const lines: string[] = [];
  const classes = group((f) => `${f.kind}|${f.status}|${f.c.mutation}|${f.what}`);
  lines.push(`${failures.length} failing responses, ${classes.length} classes (FUZZ_SEED=${run.seed} FUZZ_COUNT=${run.count}; FUZZ_CASES=<#,…> re-sends single cases)`);
  lines.push('', 'classes: count | kind | status | mutation | what came back | operations');
  for (const fs of classes) {
    const f = fs[0]!;
    const ops = [...new Set(fs.map((x) => x.c.op))];
    lines.push(`${String(fs.length).padStart(5)} | ${f.kind} | ${f.status || '-'} | ${f.c.mutation} | ${f.what} | ${ops.length > 3 ? `${ops.slice(0, 3).join(', ')} +${ops.length - 3}` : ops.join(', ')}`);
  }
  if (!opts.perOperation) return lines.join('\n');
  const distinct = group((f) => `${f.c.op}|${f.kind}|${f.status}|${f.c.mutation}|${f.what}`);
  lines.push('', 'per operation: count | operation | mutation | status | kind | what came back', '        ↳ #case: request (mutation detail)');
  for (const fs of distinct.sort((a, b) => a[0]!.c.op.localeCompare(b[0]!.c.op) || b.length - a.length)) {
    const f = fs[0]!;
    const payload = f.req.payload === undefined ? '' : ` body ${Buffer.isBuffer(f.req.payload) ? `<${f.req.payload.length} bytes>` : excerpt(f.req.payload, 60)}`;
    lines.push(`${String(fs.length).padStart(5)} | ${f.c.op} | ${f.c.mutation} | ${f.status || '-'} | ${f.kind} | ${f.what}`);
    lines.push(`        ↳ #${f.caseIndex}: ${f.req.method} ${excerpt(f.req.url, 100)}${payload} (${excerpt(f.c.detail, 60)})`);
  }
  return lines.join('\n');
}
