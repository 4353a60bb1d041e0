import { expect, test } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('connection failures, server shutdowns and pool timeouts are "unavailable", through causes', () => {
  expect(isDatabaseUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('the database system is starting up', '57P03'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('connection failure', '08006'))).toBe(true);
  expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isDatabaseUnavailable(new Error('wrapped', { cause: new Error('wrapped again', { cause: withCode('x', 'ECONNRESET') }) }))).toBe(true);
  expect(isDatabaseUnavailable(new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')]))).toBe(true);
});

test('bugs, bad queries and constraint violations are not', () => {
  expect(isDatabaseUnavailable(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
  expect(isDatabaseUnavailable(withCode('syntax error at or near "selec"', '42601'))).toBe(false);
  expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  expect(isDatabaseUnavailable(undefined)).toBe(false);
});
