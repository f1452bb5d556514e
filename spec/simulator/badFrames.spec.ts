import { unzipSync } from 'fflate';
import { MALFORMED_FRAMES, wrongShapedFrames, type BadFrame } from '../../lib/simulator/chaos/badFrames';

const T = 1_700_000_000_000;
const CLIENT_INFLATE_LIMIT = 16 * 1024 * 1024;

/** What a client gets out of a frame: the JSON value, or where decoding fails. */
function decode(frame: BadFrame): { readonly json: unknown } | { readonly failsAt: 'unzip' | 'utf8' | 'json' | 'too large' } {
  let text: string;
  if (typeof frame.data === 'string') text = frame.data;
  else {
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(frame.data);
    } catch {
      return { failsAt: 'unzip' };
    }
    const bytes = Object.values(entries)[0];
    if (bytes === undefined) return { failsAt: 'unzip' };
    if (bytes.length > CLIENT_INFLATE_LIMIT) return { failsAt: 'too large' };
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { failsAt: 'utf8' };
    }
  }
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { failsAt: 'json' };
  }
}

describe('MALFORMED_FRAMES', () => {
  const frames = MALFORMED_FRAMES.map((make) => make());

  it('have distinct names', () => {
    expect(new Set(frames.map((f) => f.name)).size).toBe(frames.length);
  });

  it('none decodes, each failing where its name says', () => {
    expect(Object.fromEntries(frames.map((f) => [f.name, decode(f)]))).toEqual({
      'truncated JSON': { failsAt: 'json' },
      'not JSON': { failsAt: 'json' },
      'empty text': { failsAt: 'json' },
      'unterminated deep nesting': { failsAt: 'json' },
      'random bytes': { failsAt: 'unzip' },
      'truncated zip': { failsAt: 'unzip' },
      'corrupt deflate': { failsAt: 'json' }, // fflate does not check the CRC: the entry inflates to garbage
      'zip bomb': { failsAt: 'too large' },
      'invalid UTF-8 in zip': { failsAt: 'utf8' },
      'zip of non-JSON': { failsAt: 'json' },
    });
  });

  it('builds the zip bomb once: small on the wire, 17 MiB of spaces inflated', () => {
    const bomb = (): BadFrame => {
      const make = MALFORMED_FRAMES.find((m) => m().name === 'zip bomb');
      if (make === undefined) throw new Error('no zip bomb');
      return make();
    };
    const a = bomb().data;
    expect(bomb().data).toBe(a);
    expect(a.length).toBeLessThan(64 * 1024);
    const inflated = Object.values(unzipSync(a as Uint8Array))[0];
    expect(inflated?.length).toBe(17 * 1024 * 1024);
    expect(inflated?.every((b) => b === 0x20)).toBe(true);
  });
});

describe('wrongShapedFrames', () => {
  it.each(['public', 'private'] as const)('are valid JSON with distinct names (%s)', (stream) => {
    const frames = wrongShapedFrames(stream, 'BTCUSDT', T);
    expect(new Set(frames.map((f) => f.name)).size).toBe(frames.length);
    for (const f of frames) expect([f.name, 'json' in decode(f)]).toEqual([f.name, true]);
  });

  it('public: envelopes of the given symbol and time whose records are of the wrong shape', () => {
    const frames = wrongShapedFrames('public', 'ETHBTC', T);
    const json = (name: string): Record<string, unknown> => {
      const f = frames.find((x) => x.name === name);
      const d = f === undefined ? undefined : decode(f);
      if (d === undefined || !('json' in d)) throw new Error(`no JSON frame '${name}'`);
      return d.json as Record<string, unknown>;
    };
    expect(json('trade record of wrong types')).toMatchObject({ symbol: 'ETHBTC', topic: 'trade', sendTime: T, data: [{ v: null, t: 'yesterday' }] });
    expect(json('depth data not an array')['data']).toBe('nope');
    expect(json('kline record of wrong types')).toMatchObject({ topic: 'kline', params: { klineType: '1m' } });
    expect(json('envelope without topic')).not.toHaveProperty('topic');
    expect(json('huge number')).toEqual({ pong: Infinity, ping: -Infinity });
  });

  it('private: no frame holds an element that is a well-formed event', () => {
    const events = wrongShapedFrames('private', 'BTCUSDT', T).flatMap((f) => {
      const d = decode(f);
      if (!('json' in d)) throw new Error(f.name);
      return Array.isArray(d.json) ? d.json : [d.json];
    });
    const wellFormed = events.filter((e) => {
      if (typeof e !== 'object' || e === null) return false;
      const r = e as Record<string, unknown>;
      if (typeof r['E'] !== 'number') return false;
      if (r['e'] === 'executionReport') return typeof r['i'] === 'string' || typeof r['i'] === 'number';
      if (r['e'] === 'outboundAccountInfo') return Array.isArray(r['B']);
      return r['e'] === 'ticketInfo';
    });
    expect(wellFormed).toEqual([]);
    expect(events).toContainEqual({ e: 'marginCall', E: T });
  });
});
