import { isRecord } from '../../lib/internal/guards';

describe('isRecord', () => {
  it('accepts objects with fields, parsed JSON objects included', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ e: 'trade' })).toBe(true);
    expect(isRecord(JSON.parse('{"a":[1]}'))).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
  });

  it('refuses null, arrays and every non-object', () => {
    for (const u of [null, undefined, [], [1], JSON.parse('[{}]'), 'text', 1, true, Symbol('s'), () => 1]) expect(isRecord(u)).toBe(false);
  });
});
