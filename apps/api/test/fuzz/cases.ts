import { baseDraft, render, type Draft, type FuzzContext, type Operation, type Req } from './operations.js';

/** One fuzz case: an operation, the mutation applied, and the request(s) it sends (several when order matters). */
export interface Case {
  op: string;
  mutation: string;
  /** what exactly was changed, for the failure table */
  detail: string;
  requests: Req[];
}

export interface Mutation {
  name: string;
  /** how much more often than others the random phase picks it (default 1) */
  weight?: number;
  applies(op: Operation): boolean;
  make(ctx: FuzzContext, op: Operation): Case;
}

/** A mutation that changes one draft into one request. */
export function mutation(name: string, applies: (op: Operation) => boolean, change: (ctx: FuzzContext, d: Draft) => string): Mutation {
  return {
    name,
    applies,
    make(ctx, op) {
      const d = baseDraft(ctx, op);
      const detail = change(ctx, d);
      return { op: op.id, mutation: name, detail, requests: [render(d)] };
    },
  };
}

export const hasJsonBody = (op: Operation) => op.body?.schema !== undefined;
export const hasQuery = (op: Operation) => op.params.some((p) => p.in === 'query');
export const hasPath = (op: Operation) => op.params.some((p) => p.in === 'path');
export const always = () => true;

/** `text` cut to `n` characters with the rest counted, so a table stays readable. */
export function excerpt(text: string, n = 80): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this escapes
  const printable = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return printable.length <= n ? printable : `${printable.slice(0, n)}…(+${printable.length - n})`;
}
