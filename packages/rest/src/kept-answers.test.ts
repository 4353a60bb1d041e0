import { expect, test } from 'vitest';
import { KEPT_BYTES_PER_OWNER, keptAnswers } from './kept-answers.js';

const answer = (body: string) => ({ body, tag: `"${body.length}"` });

test('forget(owner, key) drops only that owner’s answers kept under the key', () => {
  const kept = keptAnswers();
  const a = {};
  const b = {};
  kept.keep(a, '/listings?q=x', answer('x and y'), ['x', 'y']);
  kept.keep(a, '/listings/y', answer('y'), ['y']);
  kept.keep(a, '/categories', answer('c'));
  kept.keep(b, '/listings/y', answer('y'), ['y']);
  kept.forget(a, 'y');
  expect(kept.get(a, '/listings?q=x')).toBeUndefined();
  expect(kept.get(a, '/listings/y')).toBeUndefined();
  expect(kept.get(a, '/categories')?.body).toBe('c');
  expect(kept.get(b, '/listings/y')?.body).toBe('y');
  // the answer gone from every key it was under: a later forget of another of its keys finds nothing
  kept.forget(a, 'x');
  expect(kept.size(a)).toBe(1);
  kept.forget({}, 'y'); // an owner nothing was kept for
});

test('an answer kept again under other keys is found by the new keys only', () => {
  const kept = keptAnswers();
  const a = {};
  kept.keep(a, '/listings?q=x', answer('first'), ['x']);
  kept.keep(a, '/listings?q=x', answer('second'), ['z']);
  kept.forget(a, 'x');
  expect(kept.get(a, '/listings?q=x')?.body).toBe('second');
  kept.forget(a, 'z');
  expect(kept.get(a, '/listings?q=x')).toBeUndefined();
});

test('past KEPT_BYTES_PER_OWNER the oldest go, from their keys too', () => {
  const kept = keptAnswers();
  const a = {};
  const big = 'b'.repeat(KEPT_BYTES_PER_OWNER / 4 - 100);
  for (let i = 0; i < 5; i++) kept.keep(a, `/u${i}`, answer(big), ['k', `k${i}`]);
  expect(kept.get(a, '/u0')).toBeUndefined();
  expect(kept.get(a, '/u4')).toBeDefined();
  expect(kept.size(a)).toBe(4);
  kept.forget(a, 'k');
  expect(kept.size(a)).toBe(0);
  // bytes were given back: four fit again
  for (let i = 0; i < 4; i++) kept.keep(a, `/v${i}`, answer(big));
  expect(kept.size(a)).toBe(4);
});
