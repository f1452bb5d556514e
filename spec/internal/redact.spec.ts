import { excerpt, RAW_EXCERPT_LENGTH, redact } from '../../lib/internal/redact';
import { leakedParts } from '../corpus/leakedParts';

const LISTEN_KEY = 'Xc7Lq0Tz1pR9vMfW3kYb8nHd2sJg5aQe6uVt4oPi0lKr7yBm1wNx3zCf9hGj';
const SIGNATURE = '5f2c9a0e7b8d41c3a6f0e9d2b7c4a1f8e3d6b9c0a5f2e7d4c1b8a3f6e9d0c7b2';

describe('redact', () => {
  it('replaces opaque secret-like tokens (32+ letters and digits): listen keys, hex signatures', () => {
    expect(redact(`{"e":"x","k":"${LISTEN_KEY}"}`)).toBe('{"e":"x","k":"***"}');
    expect(redact(`echo ${SIGNATURE} end`)).toBe('echo *** end');
    expect(redact('a'.repeat(31) + '1')).toBe('***');
  });

  it('keeps digit-only ids (64-bit, 40 digits), decimal text, symbols, topic names, codec names and short runs', () => {
    const text =
      '{"i":"1291488620385157122","T":1234567890123456789012345678901234567890,"p":"34924.15000000000000000000000000001",' +
      '"s":"BTCUSDT","topic":"kline_1m","c":"outboundAccountInfo","n":"IdFromNumberOrString","r":"' + 'a1'.repeat(15) + '"}';
    expect(redact(text)).toBe(text);
  });

  it('still replaces listen-key paths, secret parameters and literal secrets', () => {
    expect(redact('wss://h/api/v1/ws/abc?x=1')).toBe('wss://h/api/v1/ws/***?x=1');
    expect(redact('a=1&signature=deadbeef&b=2')).toBe('a=1&signature=***&b=2');
    expect(redact('{"listenKey":"short"}')).toBe('{"listenKey":"***"}');
    expect(redact('my-secret-value here', ['my-secret-value'])).toBe('*** here');
  });
});

describe('excerpt', () => {
  it('redacts before cutting: a signature the cut at 300 characters splits leaves no part of 16+ characters', () => {
    // 280 characters, then a 64-hex signature echoed in a message: the cut falls 20 characters into it.
    const text = '{"msg":"' + 'x '.repeat(136) + SIGNATURE + ' was not valid: check the parameters and sign the request again"}';
    const cut = excerpt(text);
    expect(cut.length).toBeLessThanOrEqual(RAW_EXCERPT_LENGTH + 1);
    expect(cut.endsWith('…')).toBe(true);
    expect(leakedParts(cut, SIGNATURE, 8)).toEqual([]);
  });

  it('keeps short text as is and marks a cut', () => {
    expect(excerpt('{"a":1}')).toBe('{"a":1}');
    expect(excerpt('abcdef', undefined, 3)).toBe('abc…');
    expect(excerpt('x.'.repeat(10_000), undefined, 5)).toBe('x.x.x…');
    expect(excerpt('x'.repeat(40))).toBe('***'); // a run of 32+ letters is taken for a token too
  });

  it('costs the same on a 4 MB text as on a few KB (only the start is read)', () => {
    const huge = `${LISTEN_KEY} `.repeat(70_000);
    const started = performance.now();
    for (let i = 0; i < 100; i++) excerpt(huge);
    expect(performance.now() - started).toBeLessThan(500);
    expect(leakedParts(excerpt(huge), LISTEN_KEY)).toEqual([]);
  });
});
