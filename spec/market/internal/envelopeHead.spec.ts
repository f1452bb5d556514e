import * as fc from 'fast-check';
import { envelopeHead } from '../../../lib/market/internal/envelopeHead';
import { forwardingFrameReader } from '../../../lib/market/internal/forwardingFrameReader';
import { ReadMessage } from '../../../lib/market/internal/marketFrameReader';
import { FAIL } from '../../../lib/codecs/fastCheck';

/** The whole parse without `data`: what `envelopeHead` must give. */
const withoutData = (text: string): Record<string, unknown> => {
  const { data: _data, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
};

/** Text without a `]` (after the records, one would be taken for their end: such a frame is parsed whole). */
const text = fc.string().filter((s) => !s.includes(']'));
/** A value that holds no array and no `]` (the envelope's keys after the records in the service's frames: flags, times, ids). */
const noArray: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('object')),
  object: fc.dictionary(text, tie('value'), { maxKeys: 3 }),
})).value;
/** A value of a key before the records: anything but a nested `"data":[` (the first one found is taken for the records). */
const headValue = fc.jsonValue().filter((v) => !JSON.stringify(v).includes('"data":['));

describe('envelopeHead', () => {
  it('gives the whole parse without data for any envelope whose keys after the records hold no array and no "]"', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), headValue, { maxKeys: 5 }),
        fc.array(fc.jsonValue(), { maxLength: 4 }),
        fc.dictionary(text, noArray, { maxKeys: 4 }),
        (before, data, after) => {
          delete before['data'];
          delete after['data'];
          // `"data"` a key at the top of the envelope, between the others (JSON.stringify keeps insertion order)
          const frame = JSON.stringify({ symbol: 'BTCUSDT', ...before, data, ...after });
          expect(envelopeHead(frame)).toEqual(withoutData(frame));
        },
      ),
    );
  });

  it('reads the service frame of a book without its levels', () => {
    const levels = Array.from({ length: 200 }, (_, i) => [`${100 + i}.5`, '0.001']);
    const text = JSON.stringify({ symbol: 'BTCUSDT', symbolName: 'BTCUSDT', topic: 'depth', params: { binary: 'false' }, data: [{ t: 1, a: levels, b: levels }], f: true, sendTime: 5, shared: false, id: '7' });
    expect(envelopeHead(text)).toEqual({ symbol: 'BTCUSDT', symbolName: 'BTCUSDT', topic: 'depth', params: { binary: 'false' }, f: true, sendTime: 5, shared: false, id: '7' });
  });

  it.each([
    ['a batch', '[{"symbol":"A","topic":"trade","data":[]}]'],
    ['a heartbeat', '{"pong":5}'],
    ['data not an array', '{"symbol":"A","topic":"trade","data":"x"}'],
    ['"data" first (no key before it)', '{"data":[1],"symbol":"A"}'],
    ['"data" inside a value of the head', '{"params":{"data":[1]},"topic":"t"}'],
    ['text after the envelope', '{"symbol":"A","data":[1]}x'],
    ['no closing brace', '{"symbol":"A","data":[1],"f":true'],
    ['a broken head', '{"symbol":"A,"data":[1]}'],
    ['a key after the records that is no key', '{"symbol":"A","data":[1],true}'],
    ['a "]" in a string after the records', '{"symbol":"A","data":[1],"id":"a]b"}'],
    ['not JSON', 'hello'],
  ])('gives undefined for %s', (_, text) => {
    expect(envelopeHead(text)).toBeUndefined();
  });

  it('keeps a "__proto__" key a key', () => {
    const head = envelopeHead('{"symbol":"A","data":[],"__proto__":{"x":1}}');
    expect(Object.getPrototypeOf(head)).toBe(Object.prototype);
    expect(Object.keys(head!)).toEqual(['symbol', '__proto__']);
  });
});

describe('forwardingFrameReader', () => {
  it('reads a data message without its records', () => {
    const read = forwardingFrameReader()('{"symbol":"A","topic":"trade","data":[{"v":"not checked"}],"f":"true","sendTime":3,"id":12}');
    expect(read).toBeInstanceOf(ReadMessage);
    expect((read as ReadMessage).envelope).toEqual({ symbol: 'A', topic: 'trade', data: [], f: true, sendTime: 3, id: '12' });
  });

  it.each([
    ['a heartbeat beside an envelope', '{"symbol":"A","topic":"trade","data":[],"pong":5}'],
    ['an envelope that fails its check', '{"symbol":"A","topic":7,"data":[]}'],
    ['a heartbeat', '{"ping":1}'],
  ])('leaves %s to the general path', (_, text) => {
    expect(forwardingFrameReader()(text)).toBe(FAIL);
  });
});
