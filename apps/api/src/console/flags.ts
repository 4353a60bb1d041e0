import { z } from 'zod';
import { consoleFields } from '@hm/contract/console-fields';
import { ValidationError, type FieldError } from '@hm/contract/problems';

/**
 * Command-line flags derived from a console procedure's input schema (a zod object): one flag per
 * field (`first_name` → `--first-name`), read according to the field's type. Errors name the
 * field's plain path; the CLI reports them as `flag.<name>` / `file.<path>`.
 */
export type FlagKind = 'text' | 'number' | 'boolean' | 'list' | 'pairs' | 'json' | 'file';

export interface Flag {
  /** the flag without dashes */
  name: string;
  /** the input field it fills */
  field: string;
  kind: FlagKind;
  required: boolean;
  description?: string;
  /** enum values, when the field (or a list's element) is one of a few words */
  values?: string[];
  /** element / value type of lists and pairs */
  of?: 'text' | 'number';
  /** a string format the value must have (uuid, email, url, date, …) */
  format?: string;
  nullWord?: string;
  /** a file flag whose content is bytes, not JSON */
  binary?: true;
}

type Schema = z.core.$ZodType;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/nullable/default/pipe wrappers, and the descriptions met on the way (outermost first). */
function unwrap(schema: Schema): { core: Schema; descriptions: string[]; nullWord?: string; file: boolean; binary: boolean } {
  const descriptions: string[] = [];
  let nullWord: string | undefined;
  let file = false;
  let binary = false;
  let s = schema;
  for (;;) {
    const description = z.globalRegistry.get(s)?.description;
    if (description) descriptions.push(description);
    const marks = consoleFields.get(s);
    if (marks?.file) file = true;
    if (marks?.binary) binary = true;
    nullWord ??= marks?.nullWord;
    const def = s._zod.def as { type: string; innerType?: Schema; in?: Schema };
    if (WRAPPERS.has(def.type) && def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else return { core: s, descriptions, nullWord, file, binary };
  }
}

function scalar(schema: Schema): { kind: 'text' | 'number' | 'boolean'; values?: string[]; format?: string } | undefined {
  const def = unwrap(schema).core._zod.def as { type: string; entries?: Record<string, string | number>; values?: unknown[]; format?: string };
  if (def.type === 'string') return { kind: 'text', ...(def.format ? { format: def.format } : {}) };
  if (def.type === 'number') return { kind: 'number' };
  if (def.type === 'boolean') return { kind: 'boolean' };
  if (def.type === 'enum') return { kind: 'text', values: Object.values(def.entries ?? {}).map(String) };
  if (def.type === 'literal') return { kind: 'text', values: (def.values ?? []).map(String) };
  return undefined;
}

export function flagsOf(input: z.ZodObject): Flag[] {
  return Object.entries(input.shape).map(([field, schema]) => {
    const { core, descriptions, nullWord, file, binary } = unwrap(schema);
    const flag: Flag = {
      name: file ? 'file' : field.replaceAll('_', '-'),
      field,
      kind: 'json',
      required: !(schema as Schema)._zod.optin, // optional, or filled by a default
      ...(descriptions[0] ? { description: descriptions[0] } : {}),
      ...(nullWord ? { nullWord } : {}),
      ...(binary ? { binary: true as const } : {}),
    };
    const def = core._zod.def as { type: string; element?: Schema; valueType?: Schema };
    const one = scalar(core);
    const element = def.type === 'array' && def.element ? scalar(def.element) : undefined;
    const value = def.type === 'record' && def.valueType ? scalar(def.valueType) : undefined;
    if (file) flag.kind = 'file';
    else if (one) Object.assign(flag, one);
    else if (element && element.kind !== 'boolean') Object.assign(flag, { kind: 'list', of: element.kind, ...(element.values ? { values: element.values } : {}) });
    else if (value && value.kind !== 'boolean') Object.assign(flag, { kind: 'pairs', of: value.kind });
    return flag;
  });
}

/** `--name <text>`, `--kind secret|publishable`, `[--note <text>]` … */
export function usageOf(flags: Flag[]): string {
  return flags.map((f) => (f.required ? `--${f.name} ${hint(f)}` : `[--${f.name} ${hint(f)}]`)).join(' ');
}

function hint(f: Flag): string {
  const base =
    f.kind === 'file' ? (f.binary ? '<file>' : '<file.json>')
    : f.kind === 'list' ? `<${f.values ? f.values.join('|') : f.of},…>`
    : f.kind === 'pairs' ? `<KEY=${f.of},…>`
    : f.values ? f.values.join('|')
    : `<${f.format ?? f.kind}>`;
  return f.nullWord ? `${base}|${f.nullWord}` : base;
}

/** Per-command help: the command's description, then each flag with its description. */
export function helpOf(command: string, description: string | undefined, flags: Flag[]): string {
  const lines = flags.map((f) => [`  --${f.name} ${hint(f)}`, `${f.required ? '' : '(optional) '}${f.description ?? ''}`.trim()] as const);
  const width = Math.max(0, ...lines.map(([l]) => l.length)) + 2;
  return [`${command}${description ? ` — ${description}` : ''}`, '', ...(lines.length ? lines.map(([l, d]) => (d ? l.padEnd(width) + d : l)) : ['  (no flags)']), ''].join('\n');
}

/**
 * The procedure input from flag values (all strings), each read by its field's type; every value
 * that cannot be read is reported at once. The schema itself then checks the result.
 */
export function inputOf(flags: Flag[], values: Record<string, string | undefined>, readFile: (path: string, binary?: boolean) => unknown): Record<string, unknown> {
  const errors: FieldError[] = [];
  const input: Record<string, unknown> = {};
  for (const f of flags) {
    const raw = values[f.name];
    if (raw === undefined) continue;
    if (f.nullWord !== undefined && raw === f.nullWord) {
      input[f.field] = null;
      continue;
    }
    const bad = (message: string, at = f.field, value: unknown = raw) => errors.push({ location: at, message, value });
    input[f.field] = read(f, raw, bad, readFile);
  }
  if (errors.length) throw new ValidationError(errors);
  return input;
}

function read(f: Flag, raw: string, bad: (message: string, at?: string, value?: unknown) => void, readFile: (path: string, binary?: boolean) => unknown): unknown {
  switch (f.kind) {
    case 'text':
      return raw;
    case 'number':
      return number(raw, () => bad('Must be a number.'));
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true';
      return bad('Must be true or false.');
    case 'list': {
      const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
      return f.of === 'number' ? items.map((s, i) => number(s, () => bad('Must be a number.', `${f.field}.${i}`, s))) : items;
    }
    case 'pairs':
      return Object.fromEntries(
        // between texts a comma starts the next pair only where a KEY= follows, so a text may hold commas ("Tue–Sat 11–18, Sun 12–16")
        raw.split(f.of === 'number' ? ',' : /,(?=\s*[\w-]+=)/).map((pair) => {
          const at = pair.indexOf('=');
          const [key, value] = at < 0 ? [pair, undefined] : [pair.slice(0, at), pair.slice(at + 1)];
          if (!key?.trim() || value === undefined || value.trim() === '') {
            bad(`Expected KEY=VALUE pairs separated by commas.`, f.field, pair);
            return [pair, undefined];
          }
          return [key.trim(), f.of === 'number' ? number(value, () => bad('Must be a number.', `${f.field}.${key.trim()}`, value)) : value];
        }),
      );
    case 'json':
      try {
        return JSON.parse(raw);
      } catch (e) {
        return bad(`Must be JSON: ${(e as Error).message}.`);
      }
    case 'file':
      return readFile(raw, f.binary === true);
  }
}

function number(raw: string, bad: () => void): number | undefined {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) {
    bad();
    return undefined;
  }
  return n;
}

/**
 * A boolean flag may stand alone (`orders list --chargeback`): it then means true, as it reads in
 * a shell. `--on false` still says false.
 */
export function withBareBooleans(args: readonly string[], flags: Flag[]): string[] {
  const booleans = new Set(flags.filter((f) => f.kind === 'boolean').map((f) => `--${f.name}`));
  return args.flatMap((arg, i) => (booleans.has(arg) && (i + 1 >= args.length || args[i + 1]!.startsWith('--')) ? [arg, 'true'] : [arg]));
}
