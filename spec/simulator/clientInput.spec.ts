import { clientNumber, clientText, safeDecodeUri } from '../../lib/simulator/http/clientInput';

describe('safeDecodeUri', () => {
  it('decodes percent-encoding, and gives undefined for a malformed sequence instead of throwing', () => {
    expect(safeDecodeUri('a%20b%C3%A9')).toBe('a bé');
    expect(safeDecodeUri('%E0%A4%A')).toBeUndefined();
    expect(safeDecodeUri('%')).toBeUndefined();
  });
});

describe('clientText', () => {
  it.each<[unknown, string]>([
    ['text', 'text'],
    [12.5, '12.5'],
    [true, 'true'],
    [Number.NaN, ''],
    [Number.POSITIVE_INFINITY, ''],
    [null, ''],
    [undefined, ''],
    [{ a: 1 }, ''],
    [['x'], ''],
  ])('%p → %p', (input, text) => {
    expect(clientText(input)).toBe(text);
  });
});

describe('clientNumber', () => {
  it.each<[unknown, number]>([
    [5, 5],
    ['12.5', 12.5],
    ['', 0],
    ['abc', Number.NaN],
    ['1'.repeat(41), Number.NaN],
    [true, Number.NaN],
    [null, Number.NaN],
    [{}, Number.NaN],
  ])('%p → %p', (input, value) => {
    expect(clientNumber(input)).toBe(value);
  });
});
