import type { ExecutionReport } from '../codecs/executionReport';
import type { ServerPing } from '../codecs/heartbeat';
import type { OutboundAccountInfo } from '../codecs/outboundAccountInfo';
import type { PrivateEvent } from '../codecs/privateEvents';
import type { TicketInfo } from '../codecs/ticketInfo';

/**
 * Builders of private stream messages with realistic defaults, for the values of test exchange scripts.
 * They return the wire shape, which is also the decoded shape, so a builder's output doubles as the expected
 * value. Ids are text; quantities, prices and amounts are decimal text; event times `E` default to 0.
 *
 * @module
 */

/**
 * An order update (`executionReport`): a NEW limit BUY of 1 BTCUSDT at 100, order id `'1'`, client order id
 * `'c-1'`, nothing filled, `E` = `O` = `U` = 0, with `over` applied.
 *
 * @example
 * ```ts
 * import { executionReport } from 'ex-streams/testing';
 * executionReport({ i: '1900000000000000001', X: 'FILLED', z: '1', Z: '100', E: 20, U: 20 });
 * ```
 */
export function executionReport(over: Partial<ExecutionReport> = {}): ExecutionReport {
  return {
    e: 'executionReport',
    E: 0,
    s: 'BTCUSDT',
    c: 'c-1',
    S: 'BUY',
    o: 'LIMIT',
    f: 'GTC',
    q: '1',
    p: '100',
    reqAmt: '0',
    X: 'NEW',
    d: '0',
    i: '1',
    l: '0',
    r: '0',
    z: '0',
    L: '0',
    V: '0',
    n: '0',
    N: null,
    u: true,
    w: true,
    m: false,
    O: 0,
    U: 0,
    Z: '0',
    x: 'NONE',
    ...over,
  };
}

/**
 * An account update (`outboundAccountInfo`) at `E` = 0 listing one balance, `USDT` free 1000, with `over`
 * applied.
 *
 * @example
 * ```ts
 * import { outboundAccountInfo } from 'ex-streams/testing';
 * outboundAccountInfo({ E: 5, B: [{ a: 'BTC', f: '1', l: '0.5' }, { a: 'USDT', f: '900', l: '0' }] });
 * ```
 */
export function outboundAccountInfo(over: Partial<OutboundAccountInfo> = {}): OutboundAccountInfo {
  return { e: 'outboundAccountInfo', E: 0, T: true, W: true, D: true, B: [{ a: 'USDT', f: '1000', l: '0' }], ...over };
}

/**
 * A trade ticket (`ticketInfo`): ticket `'1'` of order `'1'`, a BUY of 0.5 BTCUSDT at 100, `E` = `t` = 0,
 * with `over` applied.
 *
 * @example
 * ```ts
 * import { ticketInfo } from 'ex-streams/testing';
 * ticketInfo({ T: '1950000000000000001', o: '1900000000000000001', q: '1', E: 20 });
 * ```
 */
export function ticketInfo(over: Partial<TicketInfo> = {}): TicketInfo {
  return {
    e: 'ticketInfo',
    E: 0,
    s: 'BTCUSDT',
    q: '0.5',
    t: 0,
    p: '100',
    T: '1',
    o: '1',
    c: 'c-1',
    O: '2',
    a: '1',
    m: false,
    S: 'BUY',
    ...over,
  };
}

/**
 * One private stream frame: a JSON array of events (the service sends one event per frame; several
 * model a batched push).
 *
 * @example
 * ```ts
 * import { executionReport, outboundAccountInfo, privateFrame, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.private('-a-b', {
 *   a: privateFrame(executionReport({ E: 1 })),
 *   b: privateFrame(executionReport({ X: 'FILLED', z: '1', Z: '100', E: 3, U: 3 }), outboundAccountInfo({ E: 3 })),
 * });
 * ```
 */
export function privateFrame(...events: readonly PrivateEvent[]): PrivateEvent[] {
  return [...events];
}

/**
 * The private stream server's own ping `{ ping, channelId }`; the client answers `{ pong: ping }`, which the
 * test exchange records.
 *
 * @example
 * ```ts
 * import { serverPing, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.private('-p', { p: serverPing(1) });
 * // later: exchange.sent({ kind: 'pong' }) → [{ time: 1, frame: { pong: 1 }, … }]
 * ```
 */
export function serverPing(ping: number, channelId = 'test-channel'): ServerPing {
  return { ping, channelId };
}
