import { Observable } from 'rxjs';
import type { PrivateEvent } from '../../../lib/codecs/privateEvents';
import { DecodeError } from '../../../lib/errors';
import type { SessionItem } from '../../../lib/user/internal/items';
import { frameSink } from '../../../lib/user/internal/privateFrameSink';
import { leakedParts } from '../../corpus/leakedParts';

const LISTEN_KEY = 'Xc7Lq0Tz1pR9vMfW3kYb8nHd2sJg5aQe6uVt4oPi0lKr7yBm1wNx3zCf9hGj';
const account = (E: number) => ({ e: 'outboundAccountInfo', E, B: [{ a: 'BTC', f: '1', l: '0' }] });
const ticket = { e: 'ticketInfo', E: 5, s: 'BTCUSDT', q: '1', t: 5, p: '1', T: '7', o: '8', S: 'BUY' };

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
    sink([account(1), { e: 'nope' }, account(2), 7, { ...ticket, q: 'x' }, ticket]);
    expect(log.map((x) => ('event' in x ? x.event.E : x.type))).toEqual([1, 2, 5, 'error']);
    expect(errors()).toHaveLength(1);
    expect(errors()[0]).toMatchObject({
      kind: 'codec',
      message: '3 of 6 private events failed to decode (paths: the first)',
      paths: ['Invalid value "nope" supplied to : PrivateEvent/e: "outboundAccountInfo" | "executionReport" | "ticketInfo"'],
    });
  });

  it('decodes single events, ignores heartbeats and reports a frame that is no event', () => {
    const { sink, errors, events } = setup();
    sink(account(1));
    sink({ ping: 1, channelId: 'x' });
    sink('x '.repeat(2_000_000));
    sink({ e: 'nope' });
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
});
