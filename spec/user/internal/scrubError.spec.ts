import { DecodeError, RequestRejectedError } from '../../../lib/errors';
import { redactFragments, scrubError } from '../../../lib/user/internal/scrubError';

const key = 'Kx9fQ2mZ7pL4vB8nR1tY6wE3uI5oA0sD2fG4hJ6kL8zX1cV3bN5mQ7wE9rT2yU4i';

describe('scrubError', () => {
  it('redacts a key, whole or cut, from the message, text fields and lists of text (DecodeError paths)', () => {
    const error = new DecodeError(
      'codec',
      `bad value ${key.slice(0, 40)}…`,
      [`Invalid value "${key.slice(20, 60)}…" supplied to : X/i`, 'Invalid value 1 supplied to : X/E'],
      `{"i":"${key}"}`,
    );
    const clean = scrubError(error, [key]) as DecodeError;
    expect(clean).toBeInstanceOf(DecodeError);
    expect(clean.name).toBe('DecodeError');
    const text = [clean.message, clean.stack, clean.raw, ...clean.paths].join('\n');
    for (let i = 0; i + 8 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 8));
    expect(clean.paths).toEqual(['Invalid value "***…" supplied to : X/i', 'Invalid value 1 supplied to : X/E']);
    expect(clean.kind).toBe('codec');
  });

  it('returns the error itself when it holds no key', () => {
    const error = new RequestRejectedError(401, -1002, 'not authorized');
    error.stack = `${error.name}: ${error.message}\n    at post (rest.js:1:1)`;
    expect(scrubError(error, [key])).toBe(error);
  });
});

describe('redactFragments', () => {
  it('replaces every run of 8 or more characters of a key, and leaves shorter runs and other text', () => {
    expect(redactFragments(`a ${key.slice(5, 13)} b ${key.slice(30, 37)} c`, [key])).toBe(`a *** b ${key.slice(30, 37)} c`);
    expect(redactFragments(`${key.slice(0, 30)}${key.slice(40)}`, [key])).toBe('******');
    expect(redactFragments('nothing here', [key])).toBe('nothing here');
    expect(redactFragments(key, ['short'])).toBe(key);
  });
});
