import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { consoleRouter } from '@hm/contract/console';
import { fromFile, nullAs } from '@hm/contract/console-fields';
import { ValidationError } from '@hm/contract/problems';
import { commandsOf } from './commands.js';
import { flagsOf, helpOf, inputOf, usageOf, withBareBooleans } from './flags.js';

const input = z.strictObject({
  first_name: z.string().max(10).describe('Given name.'),
  kind: z.enum(['a', 'b']),
  amount: z.number().int().optional(),
  note: z.string().default(''),
  on: z.boolean().optional(),
  codes: z.array(z.string()).optional(),
  sizes: z.array(z.number()).optional(),
  rates: z.record(z.string(), z.number()).optional(),
  texts: z.record(z.string(), z.string()).optional(),
  schedule: z.array(z.object({ months: z.number() })).optional(),
  percent: nullAs(z.number().nullable(), 'default', 'Percent; "default" for none.'),
  settings: fromFile(z.object({ x: z.number() }), 'Settings JSON.'),
});

describe('flags from an input schema', () => {
  test('one flag per field, kebab-case, read by the field type; optional and defaulted fields are not required', () => {
    expect(flagsOf(input).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['first-name', 'text', true],
      ['kind', 'text', true],
      ['amount', 'number', false],
      ['note', 'text', false],
      ['on', 'boolean', false],
      ['codes', 'list', false],
      ['sizes', 'list', false],
      ['rates', 'pairs', false],
      ['texts', 'pairs', false],
      ['schedule', 'json', false],
      ['percent', 'number', true],
      ['file', 'file', true],
    ]);
    expect(usageOf(flagsOf(input))).toBe(
      '--first-name <text> --kind a|b [--amount <number>] [--note <text>] [--on <boolean>] [--codes <text,…>] [--sizes <number,…>] [--rates <KEY=number,…>] [--texts <KEY=text,…>] [--schedule <json>] --percent <number>|default --file <file.json>',
    );
  });

  test('a boolean flag standing alone means true; with a value it is read as given', () => {
    const flags = flagsOf(input);
    expect(withBareBooleans(['--on'], flags)).toEqual(['--on', 'true']);
    expect(withBareBooleans(['--on', '--kind', 'a'], flags)).toEqual(['--on', 'true', '--kind', 'a']);
    expect(withBareBooleans(['--on', 'false', '--kind', 'b'], flags)).toEqual(['--on', 'false', '--kind', 'b']);
  });

  test('help lists every flag with the description from its schema', () => {
    const help = helpOf('things make', 'Make a thing.', flagsOf(input));
    expect(help.split('\n')[0]).toBe('things make — Make a thing.');
    expect(help).toMatch(/--first-name <text> +Given name\./);
    expect(help).toMatch(/--percent <number>\|default +Percent; "default" for none\./);
    expect(help).toMatch(/--file <file\.json> +Settings JSON\./);
    expect(help).toMatch(/--amount <number> +\(optional\)/);
  });

  test('values are read by type; the null word is null; the file flag reads the file', () => {
    const read = (p: string) => ({ from: p });
    const values = { 'first-name': 'Ann', kind: 'a', amount: '12', on: 'false', codes: 'SEK, EUR,', sizes: '1,2.5', rates: 'SEK=11.5,USD=1', texts: 'en=Tue–Sat 11–18, Sun 12–16,sv=tis–lör 11–18 = kl. 11–18', schedule: '[{"months":2}]', percent: 'default', file: 's.json' };
    expect(inputOf(flagsOf(input), values, read)).toEqual({
      first_name: 'Ann',
      kind: 'a',
      amount: 12,
      on: false,
      codes: ['SEK', 'EUR'],
      sizes: [1, 2.5],
      rates: { SEK: 11.5, USD: 1 },
      // a text's commas and equals signs are its own; a comma before KEY= starts the next pair
      texts: { en: 'Tue–Sat 11–18, Sun 12–16', sv: 'tis–lör 11–18 = kl. 11–18' },
      schedule: [{ months: 2 }],
      percent: null,
      settings: { from: 's.json' },
    });
  });

  test('every value that cannot be read is reported at once, at the plain field path', () => {
    const err = (() => {
      try {
        inputOf(flagsOf(input), { amount: 'lots', on: 'yes', sizes: '1,x', rates: 'SEK=1,USD', schedule: '[{months:2}]', percent: '' }, () => null);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors.map((e) => [e.location, e.value])).toEqual([
      ['amount', 'lots'],
      ['on', 'yes'],
      ['sizes.1', 'x'],
      ['rates', 'USD'],
      ['schedule', '[{months:2}]'],
      ['percent', ''],
    ]);
  });
});

describe('console commands', () => {
  const commands = commandsOf(consoleRouter);

  test('every console procedure is a command named <group> <kebab-action>', () => {
    expect([...commands.keys()]).toEqual([
      'marketplace create',
      'marketplace update',
      'marketplace get',
      'marketplace list',
      'keys create',
      'keys list',
      'keys revoke',
      'categories import',
      'terms import',
      'sites create',
      'sites set-opening-hours',
      'sites list',
      'users create',
      'users block',
      'users unblock',
      'listings get',
      'listings approve',
      'listings deny',
      'listings offer',
      'listings set-shipping-size',
      'listings set-commission',
      'listings custody',
      'rates set',
      'rates list',
      'vouchers create',
      'vouchers list',
      'orders get',
      'orders list',
      'orders transition',
      'support list',
      'support reply',
      'conversations get',
      'payouts reconcile',
      'payouts failed',
      'payouts retry',
      'pages put',
      'pages publish',
      'pages unpublish',
      'pages preview-link',
      'pages list',
      'media upload',
      'media set-alt',
      'newsletter export',
      'doctor',
      'attention',
      'webhooks create',
      'webhooks list',
      'webhooks update',
      'webhooks delete',
      'webhooks rotate-secret',
      'webhooks deliveries',
      'webhooks replay',
      'operators create',
      'operators list',
      'operators set-role',
      'operators remove',
    ]);
  });

  test('every command says what it does, and reads structured values as lists, pairs, JSON or a file', () => {
    for (const c of commands.values()) expect(c.description, c.name).toBeTruthy();
    const usage = Object.fromEntries([...commands.values()].map((c) => [c.name, c.usage]));
    expect(usage['marketplace create']).toBe('--name <text> --slug <text> --currencies <text,…> --locales <text,…> --storefront-url <url>');
    expect(usage['rates set']).toBe('--marketplace <text> --date <date> --base <text> --rates <KEY=number,…>');
    expect(usage['listings offer']).toBe('--id <uuid> --amount <number> --currency <text> [--note <text>] [--schedule <json>]');
    expect(usage['listings set-commission']).toBe('--id <uuid> --percent <number>|default');
    expect(usage['categories import']).toBe('--marketplace <text> --file <file.json>');
    expect(usage['vouchers create']).toBe('--marketplace <text> --file <file.json>');
    expect(usage['support list']).toBe('--marketplace <text> [--unanswered <boolean>] [--limit <number>]');
    expect(usage['support reply']).toBe('--conversation <uuid> --body <text>');
    expect(usage['pages put']).toBe('--marketplace <text> --slug <text> --locale <text> --file <file.json>');
    expect(usage['media upload']).toBe('--marketplace <text> --file <file> --alt <text> [--alts <KEY=text,…>]');
    expect(usage['media set-alt']).toBe('--marketplace <text> --id <uuid> [--alt <text>] [--alts <KEY=text,…>]');
    expect(usage['sites set-opening-hours']).toBe('--marketplace <text> --id <uuid> [--opening-hours <text>] [--opening-hours-by-language <KEY=text,…>]');
    expect(usage['orders transition']).toMatch(/^--id <uuid> --transition confirm-payment\|.*\|resolve-canceled \[--data <json>\]$/);
  });
});
