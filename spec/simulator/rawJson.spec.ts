import { RawNumber, rawJson } from '../../lib/simulator/orders/rawJson';

describe('rawJson', () => {
  it('writes a RawNumber as its digits, unquoted, exact beyond 2^53', () => {
    expect(rawJson(new RawNumber('1900000000000000001'))).toBe('1900000000000000001');
    expect(rawJson({ i: new RawNumber('1900000000000000001'), c: '1900000000000000001' })).toBe('{"i":1900000000000000001,"c":"1900000000000000001"}');
  });

  it('writes every other value as JSON.stringify does, nested, keys in order', () => {
    const value = { b: [1, 'two', true, null, { x: -0.5 }], a: 'é"\n', e: [] as const, o: {} };
    expect(rawJson(value)).toBe(JSON.stringify(value));
  });

  it('escapes keys', () => {
    expect(rawJson({ 'a"b': 1 })).toBe('{"a\\"b":1}');
  });
});
