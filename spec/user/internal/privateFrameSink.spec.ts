import { Observable } from 'rxjs';
import type { PrivateEvent } from '../../../lib/codecs/privateEvents';
import { DecodeError } from '../../../lib/errors';
import type { SessionItem } from '../../../lib/user/internal/items';
import { frameSink } from '../../../lib/user/internal/privateFrameSink';
import { outboundAccountInfo, ticketInfo } from '../../../lib/testing/privateMessages';
import { leakedParts } from '../../corpus/leakedParts';

const LISTEN_KEY = 'Xc7Lq0Tz1pR9vMfW3kYb8nHd2sJg5aQe6uVt4oPi0lKr7yBm1wNx3zCf9hGj';
const account = (E: number) => outboundAccountInfo({ E, B: [{ a: 'BTC', f: '1', l: '0' }] });
const ticket = ticketInfo({ E: 5, q: '1', t: 5, p: '1', T: '7', o: '8' });

/** A sink whose events and items are recorded, in order, as they are handed on. */
function setup() {
  const log: Array<{ event: PrivateEvent } | SessionItem> = [];
  let sink!: (message: unknown, now: number) => void;
  const subscription = new Observable<SessionItem>((subscriber) => {
    sink = frameSink(subscriber, (event) => log.push({ event }));
  }).subscribe((item) => log.push(item));
  const errors = () => log.flatMap((x) => ('type' in x && x.type === 'error' ? [x.error as DecodeError] : []));
  const events = () => log.flatMap((x) => ('event' in x ? [x.event] : []));
  return { log, sink: (m: unknown) => sink(m, 0), subscription, errors, events };
}

describe('frameSink (private frames)', () => {
  it('hands on the good events of a frame and ONE DecodeError counting the bad ones, after them', () => {
    const { log, sink, errors } = setup();
    sink([account(1), { e: 5 }, account(2), 7, { ...ticket, q: 'x' }, ticket]);
    expect(log.map((x) => ('event' in x ? x.event.E : x.type))).toEqual([1, 2, 5, 'error']);
    expect(errors()).toHaveLength(1);
    expect(errors()[0]).toMatchObject({
      kind: 'codec',
      message: '3 of 6 private events failed to decode (paths: the first)',
      paths: ['Invalid value 5 supplied to : PrivateEvent/e: "outboundAccountInfo" | "executionReport" | "ticketInfo" | string'],
    });
  });

  it('decodes single events, ignores heartbeats and reports a frame that is no event', () => {
    const { sink, errors, events } = setup();
    sink(account(1));
    sink({ ping: 1, channelId: 'x' });
    sink('x '.repeat(2_000_000));
    sink({ e: 5 });
    expect(events().map((e) => e.E)).toEqual([1]);
    expect(errors().map((e) => e.message)).toEqual([
      'PrivateFrame failed to decode: expected an array of events or one event object',
      'PrivateEvent failed to decode: 1 error(s)',
    ]);
    for (const e of errors()) expect(e.paths.join('').length + e.raw!.length).toBeLessThan(2048);
  });

  it('survives nesting 100 000 deep (arrays and objects): one DecodeError each', () => {
    const { sink, errors } = setup();
    const depth = 100_000;
    expect(() => sink(JSON.parse('['.repeat(depth) + ']'.repeat(depth)))).not.toThrow();
    expect(() => sink(JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)))).not.toThrow();
    expect(() => sink([{ ...ticket, q: JSON.parse('{"a":'.repeat(3000) + '1' + '}'.repeat(3000)) }])).not.toThrow();
    expect(errors()).toHaveLength(3);
    for (const e of errors()) expect(e.paths.join('').length + e.raw!.length).toBeLessThan(2048);
  });

  it('never shows the listen key held by a failing field, nor any 16-character part of it', () => {
    const { sink, errors } = setup();
    sink([{ ...ticket, o: { listenKey: LISTEN_KEY }, q: LISTEN_KEY, s: `${LISTEN_KEY.slice(0, 40)}` }]);
    expect(errors()).toHaveLength(1);
    const [e] = errors();
    for (const text of [...e!.paths, e!.message, e!.raw!]) expect(leakedParts(text, LISTEN_KEY)).toEqual([]);
  });

  it('handles a 4 MB frame of 2 000 000 bad events in about the time of its JSON.parse, good events still delivered', () => {
    const { sink, errors, events } = setup();
    const text = `[${JSON.stringify(account(1))},${Array(2_000_000).fill('1').join(',')},${JSON.stringify(account(2))}]`;
    const parseStarted = performance.now();
    const frame = JSON.parse(text) as unknown;
    const parseMs = performance.now() - parseStarted;
    const started = performance.now();
    sink(frame);
    const elapsedMs = performance.now() - started;
    expect(events().map((e) => e.E)).toEqual([1, 2]);
    expect(errors().map((e) => e.message)).toEqual(['2000000 of 2000002 private events failed to decode (paths: the first)']);
    expect(elapsedMs).toBeLessThan(3 * parseMs + 1000);
  });

  it('stops handing on once unsubscribed', () => {
    const { log, sink, subscription } = setup();
    subscription.unsubscribe();
    sink([account(1), 7]);
    expect(log).toEqual([]);
  });

  describe('exact 64-bit ids, on demand (the session parses frames as they are)', () => {
    const { exactJsonValue, parseJsonValue } = jest.requireActual<typeof import('../../../lib/frame/json')>('../../../lib/frame/json');
    /** Hands `text` over as the key session does: parsed as is, with `exact()` for the exact parse. */
    function deliver(text: string) {
      const log: Array<{ event: PrivateEvent } | SessionItem> = [];
      let exactCalls = 0;
      new Observable<SessionItem>((subscriber) => {
        const sink = frameSink(subscriber, (event) => log.push({ event }));
        sink(parseJsonValue(text, [], false), 0, () => (exactCalls++, exactJsonValue(text)));
      }).subscribe((item) => log.push(item));
      return { events: log.flatMap((x) => ('event' in x ? [x.event] : [])), items: log.flatMap((x) => ('type' in x ? [x] : [])), exactCalls: () => exactCalls };
    }
    const report = (i: string, E: number) =>
      `{"e":"executionReport","E":${E},"s":"ETHBTC","c":"c1","S":"BUY","o":"LIMIT","f":"GTC","q":"1","p":"0.1","X":"NEW","i":${i},` +
      `"l":"0","r":"0","z":"0","L":"0","n":"0","N":"ETH","u":true,"w":true,"m":false,"O":1,"U":${E},"Z":"0"}`;

    it('a bare id above 2^53 arrives exact, in an array frame and alone, events before it included', () => {
      const { events, items, exactCalls } = deliver(`[${report('"5"', 1)},${report('1920153487203598337', 2)},${report('1920153487203598339', 3)}]`);
      expect(events.map((e) => (e.e === 'executionReport' ? e.i : ''))).toEqual(['5', '1920153487203598337', '1920153487203598339']);
      expect(items).toEqual([]);
      expect(exactCalls()).toBe(1);
      const single = deliver(report('1920153487203598337', 4));
      expect(single.events.map((e) => (e.e === 'executionReport' ? e.i : ''))).toEqual(['1920153487203598337']);
    });

    it('frames without long integers never ask for the exact parse; a bad event still fails once', () => {
      const plain = deliver(`[${report('"7"', 1)}]`);
      expect(plain.events).toHaveLength(1);
      expect(plain.exactCalls()).toBe(0);
      const bad = deliver(`[${report('"7"', 1)},{"e":"executionReport"},${report('8', 2)}]`);
      expect(bad.events.map((e) => (e.e === 'executionReport' ? e.i : ''))).toEqual(['7', '8']);
      expect(bad.items.map((i) => i.type)).toEqual(['error']);
      expect(bad.exactCalls()).toBe(1);
    });

    /** Hands `text` over as the key session does, its text too. */
    function deliverWithText(text: string) {
      const log: PrivateEvent[] = [];
      const items: SessionItem[] = [];
      new Observable<SessionItem>((subscriber) => {
        const sink = frameSink(subscriber, (event) => log.push(event));
        sink(parseJsonValue(text, [], false), 0, () => exactJsonValue(text), text);
      }).subscribe((item) => items.push(item));
      return { events: log, items };
    }

    it('an event of a type the library does not model arrives with its exact text and exact fields, costing no other event', () => {
      // ccxt's recorded HashKey position update (ts/src/pro/hashkey.ts, handlePosition), its account id a bare number here.
      const position = '{"e":"outboundContractPositionInfo","E":"1723084699801","A":1735619524953226496,"s":"ETHUSDT-PERPETUAL","S":"LONG","p":"2429.6","P":"2"}';
      const text = `[${report('"7"', 1)}, ${position} ,{"e":""},${report('8', 2)}]`;
      const { events, items } = deliverWithText(text);
      expect(items).toEqual([]);
      expect(events.map((e) => e.e)).toEqual(['executionReport', 'other', 'other', 'executionReport']);
      const other = events[1]!;
      if (other.e !== 'other') throw new Error('expected an other event');
      expect(other).toMatchObject({ type: 'outboundContractPositionInfo', E: 1723084699801, text: position });
      expect(other.raw.A).toBe('1735619524953226496');
      expect(events[2]).toStrictEqual({ e: 'other', type: '', raw: { e: '' }, text: '{"e":""}' });
      const single = deliverWithText(` ${position}`);
      expect(single.events).toMatchObject([{ e: 'other', text: position, raw: { A: '1735619524953226496' } }]);
    });
  });
});
