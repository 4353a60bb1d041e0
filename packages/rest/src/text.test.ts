import { expect, test } from 'vitest';
import { duplicateKeyPath, repeatsAKey } from './text.js';

const check = (text: string) => (repeatsAKey(text, JSON.parse(text)) ? duplicateKeyPath(text) : undefined);

test('a key repeated in one object is found at its path, at any depth, escaped or not', () => {
  expect(check('{"a":1,"a":2}')).toEqual(['a']);
  expect(check('{"a":1,"\\u0061":2}')).toEqual(['a']);
  expect(check('{"x":[{"a":1},{"a":1,"b":{"c":1,"c":2}}]}')).toEqual(['x', '1', 'b', 'c']);
  expect(check('[{}, {"k":[1,{"k":2,"k":3}]}]')).toEqual(['1', 'k', '1', 'k']);
});

test('equal keys in sibling objects, keys inside strings and empty objects are no duplicates', () => {
  for (const text of ['{"a":{"a":1},"b":{"a":2}}', '{"a":"\\"a\\":1","b":"{\\"a\\":1}"}', '{}', '[{},{}]', '{"a":[],"b":{}}', '"{\\"a\\":1,\\"a\\":2}"', '{ "a" : 1 , "b" : [ { "a" : 2 } ] }']) {
    expect(repeatsAKey(text, JSON.parse(text)), text).toBe(false);
    expect(duplicateKeyPath(text), text).toBeUndefined();
  }
});
