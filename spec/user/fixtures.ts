import type { ExecutionReport } from '../../lib/codecs/executionReport';
import type { OutboundAccountInfo } from '../../lib/codecs/outboundAccountInfo';
import type { TicketInfo } from '../../lib/codecs/ticketInfo';

/** A decoded execution report with sensible defaults. */
export function report(over: Partial<ExecutionReport> = {}): ExecutionReport {
  return {
    e: 'executionReport',
    E: 1000,
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
    r: '1',
    z: '0',
    L: '0',
    V: '0',
    n: '0',
    N: null,
    u: true,
    w: true,
    m: false,
    O: 1000,
    U: 1000,
    Z: '0',
    x: 'NONE',
    ...over,
  } as ExecutionReport;
}

/** A decoded account update. */
export function account(E: number, balances: ReadonlyArray<readonly [string, string, string]>): OutboundAccountInfo {
  return {
    e: 'outboundAccountInfo',
    E,
    T: true,
    W: true,
    D: true,
    B: balances.map(([a, f, l]) => ({ a, f, l })),
  } as OutboundAccountInfo;
}

/** A decoded trade ticket. */
export function ticket(T: string, over: Partial<TicketInfo> = {}): TicketInfo {
  return {
    e: 'ticketInfo',
    E: 1000,
    s: 'BTCUSDT',
    q: '0.5',
    t: 1000,
    p: '100',
    T,
    o: '1',
    c: 'c-1',
    O: '2',
    a: '9',
    A: 0,
    m: false,
    S: 'BUY',
    ...over,
  } as TicketInfo;
}
