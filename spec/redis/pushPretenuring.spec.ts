import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { entryFields, type MarketEntry, pushPayload, readEntry, readPush } from '../../lib/redis/marketEntry';

// V8 may decide that an object literal's site makes long-lived objects ("allocation-site pretenuring") and make them
// in the old generation from then on. A consumer's per-entry objects (the push read, its entry) hold the entry's young
// frame text: made old, each kept its frame alive through the scavenges until the next full GC (in one consumer
// process of two at issue 28's venue, every frame promoted: 16-17 MB per 10 s, scavenges up to 22 ms). They are made
// by `new`, which V8 never pretenures. `%PretenureAllocationSite` makes V8 pretenure the site of an object, as its own
// statistics may decide at any time; on an object with no site it does nothing.
setFlagsFromString('--allow-natives-syntax');
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
const pretenureSite = new Function('o', '%PretenureAllocationSite(o)') as (o: object) => void;
const young = new Function('o', 'return %InYoungGeneration(o)') as (o: object) => boolean;
const prepare = new Function('f', '%PrepareFunctionForOptimization(f)') as (f: unknown) => void;
const optimizeNext = new Function('f', '%OptimizeFunctionOnNextCall(f)') as (f: unknown) => void;

describe("a consumer's per-entry objects", () => {
  const entry: MarketEntry = { kind: 'message', seq: 7, receivedAt: 1700000000123, symbol: 'BTCUSDT', topic: 'depth', frame: `{"data":[{"b":[${'["1.5","2"],'.repeat(200)}["1","1"]]}]}`, prev: '1-1' };
  const payload = Buffer.from(pushPayload('1700000000123-45', entryFields(entry)));

  it('stay young when V8 pretenures whatever site they come from: a push read, and an XREAD entry', () => {
    const fields = entryFields(entry);
    prepare(readPush);
    prepare(readEntry);
    for (let i = 0; i < 3; i++) {
      const push = readPush(payload)!;
      pretenureSite(push);
      pretenureSite(push.entry!);
      pretenureSite(readEntry(fields)!);
    }
    // A pretenured site takes effect at the next GC; optimized code (a long-running consumer's) then makes its objects old.
    gc({ type: 'minor' });
    prepare(readPush);
    prepare(readEntry);
    readPush(payload);
    readEntry(fields);
    optimizeNext(readPush);
    optimizeNext(readEntry);
    const push = readPush(payload)!;
    expect(push.entry).toEqual(entry);
    expect(young(push)).toBe(true);
    expect(young(push.entry!)).toBe(true);
    expect(young(readEntry(fields)!)).toBe(true);
  });
});
