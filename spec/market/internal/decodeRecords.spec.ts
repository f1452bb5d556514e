import { fastCheckOf } from '../../../lib/codecs/fastCheck';
import { TradeRecordCodec } from '../../../lib/codecs/trade';
import type { DecodeError } from '../../../lib/errors';
import { decodeRecords } from '../../../lib/market/internal/decodeRecords';

const good = (v: string) => ({ v, t: 1, p: '1', q: '1', m: true });

describe('decodeRecords', () => {
  it.each([
    ['with its fast check', true],
    ['through the codec alone', false],
  ])('keeps the good records in order and reports the bad ones as ONE error per message, counting them (%s)', (_, fast) => {
    const errors: DecodeError[] = [];
    const data = [good('1'), { ...good('x'), p: 'bad' }, good('2'), 7, { ...good('y'), t: 'z' }];
    const out = decodeRecords(TradeRecordCodec, fast ? fastCheckOf(TradeRecordCodec) : undefined, data, (e) => errors.push(e));
    expect(out).toEqual([good('1'), good('2')]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      name: 'DecodeError',
      kind: 'codec',
      message: '3 of 5 TradeRecord records failed to decode (paths: the first)',
      paths: ['Invalid value "bad" supplied to : TradeRecord/p: DecimalString'],
    });
  });

  it('reports nothing and returns the data itself when every record passes', () => {
    const errors: DecodeError[] = [];
    const data = [good('1'), good('2')];
    expect(decodeRecords(TradeRecordCodec, fastCheckOf(TradeRecordCodec), data, (e) => errors.push(e))).toBe(data);
    expect(errors).toEqual([]);
  });

  it('handles a 4 MB message of 2 000 000 bad records in about the time of its JSON.parse (one error)', () => {
    const text = `[${Array(2_000_000).fill('1').join(',')}]`;
    const parseStarted = performance.now();
    const data = JSON.parse(text) as unknown[];
    const parseMs = performance.now() - parseStarted;
    const errors: DecodeError[] = [];
    const started = performance.now();
    const out = decodeRecords(TradeRecordCodec, fastCheckOf(TradeRecordCodec), [good('1'), ...data, good('2')], (e) => errors.push(e));
    const elapsedMs = performance.now() - started;
    expect(out).toEqual([good('1'), good('2')]);
    expect(errors.map((e) => e.message)).toEqual(['2000000 of 2000002 TradeRecord records failed to decode (paths: the first)']);
    expect(errors[0]!.paths).toEqual(['Invalid value 1 supplied to : TradeRecord']);
    expect(elapsedMs).toBeLessThan(3 * parseMs + 1000);
  });
});
