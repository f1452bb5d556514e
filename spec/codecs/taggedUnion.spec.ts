import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';
import { FAIL, fastCheckOf, inPlaceCheckOf } from '../../lib/codecs/fastCheck';
import { IntFromNumberOrString } from '../../lib/codecs/primitives';
import { struct } from '../../lib/codecs/struct';
import { membersOf, taggedUnion } from '../../lib/codecs/taggedUnion';

const Ping = struct('Ping', { kind: t.literal('ping'), at: IntFromNumberOrString }, {});
const Pong = struct('Pong', { kind: t.literal('pong'), at: IntFromNumberOrString }, { id: t.string });
const Beat = taggedUnion('Beat', 'kind', { ping: Ping, pong: Pong });

describe('taggedUnion', () => {
  it('decodes with the member named by the tag, converting as the member does', () => {
    expect(Beat.decode({ kind: 'pong', at: '5', id: 'x' })).toStrictEqual(E.right({ kind: 'pong', at: 5, id: 'x' }));
  });

  it('reports only the selected member, under the tag value', () => {
    expect(PathReporter.report(Beat.decode({ kind: 'pong', at: 'x', id: 1 }))).toEqual([
      'Invalid value "x" supplied to : Beat/pong: Pong/at: IntFromNumberOrString',
      'Invalid value 1 supplied to : Beat/pong: Pong/id: string',
    ]);
  });

  it('reports a missing or unknown tag at the tag, with the member names in declaration order', () => {
    expect(PathReporter.report(Beat.decode({ kind: 'toString', at: 1 }))).toEqual(['Invalid value "toString" supplied to : Beat/kind: "ping" | "pong"']);
    expect(PathReporter.report(Beat.decode({ at: 1 }))).toEqual(['Invalid value undefined supplied to : Beat/kind: "ping" | "pong"']);
  });

  it('reports a non-object at the union', () => {
    for (const u of [null, [], 'ping', 1]) expect(PathReporter.report(Beat.decode(u))).toEqual([`Invalid value ${JSON.stringify(u)} supplied to : Beat`]);
  });

  it('is(), encode() and the fast checks dispatch on the tag', () => {
    expect(Beat.is({ kind: 'ping', at: 1 })).toBe(true);
    expect(Beat.is({ kind: 'ping', at: '1' })).toBe(false);
    expect(Beat.is({ kind: 'hasOwnProperty', at: 1 })).toBe(false);
    expect(Beat.encode({ kind: 'pong', at: 2 })).toStrictEqual({ kind: 'pong', at: 2 });
    const check = fastCheckOf(Beat);
    const u = { kind: 'ping', at: '7' };
    expect(check(u)).toStrictEqual({ kind: 'ping', at: 7 });
    expect(u.at).toBe('7');
    expect(check({ kind: 'pang', at: 7 })).toBe(FAIL);
    expect(check([])).toBe(FAIL);
    expect(inPlaceCheckOf(Beat)(u)).toBe(u);
    expect(u.at).toBe(7);
  });

  it('exposes its declaration (membersOf) for generators', () => {
    expect(membersOf(Beat)).toEqual({ tag: 'kind', members: { ping: Ping, pong: Pong } });
    expect(membersOf(Ping)).toBeUndefined();
  });
});
