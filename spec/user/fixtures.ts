import { distinctUntilChanged, map, type Observable } from 'rxjs';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import { of } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { fakeWebSocket } from '../../lib/testing/fakeWebSocket';
import { userStream, type UserStream, type UserStreamConfig } from '../../lib/user/userStream';
import { executionReport, outboundAccountInfo, ticketInfo } from '../../lib/testing/privateMessages';
import type { ExecutionReport } from '../../lib/codecs/executionReport';
import type { Balance, OutboundAccountInfo } from '../../lib/codecs/outboundAccountInfo';
import type { TicketInfo } from '../../lib/codecs/ticketInfo';

/** A decoded execution report with sensible defaults (the testing builder's, at E = O = U = 1000). */
export function report(over: Partial<ExecutionReport> = {}): ExecutionReport {
  return executionReport({ E: 1000, r: '1', O: 1000, U: 1000, ...over });
}

/** A decoded account update (the testing builder's, with these balances: `[asset, free, locked]`). */
export function account(E: number, balances: ReadonlyArray<readonly [string, string, string]>): OutboundAccountInfo {
  return outboundAccountInfo({ E, B: balances.map(([a, f, l]) => ({ a, f, l }) as Balance) });
}

/** A decoded trade ticket (the testing builder's, at E = t = 1000, account '9'; with the ignored `A` the service sends). */
export function ticket(T: string, over: Partial<TicketInfo> = {}): TicketInfo {
  return { ...ticketInfo({ E: 1000, t: 1000, T, a: '9', ...over }), A: 0 } as TicketInfo;
}

/**
 * The connection part of a user stream's `status$`, one value per transition (an emission for counters alone
 * carries the same connection object and is skipped).
 */
export const connectionOf = (user: Pick<UserStream, 'status$'>): Observable<ConnectionStatus> =>
  user.status$.pipe(
    map((s) => s.connection),
    distinctUntilChanged(),
  );

/** The private stream address the marble specs use. */
export const USER_URL = 'ws://127.0.0.1:1/api/v1/ws';

/**
 * A `userStream` on a scheduler-driven fake socket (opens 1 ms after creation), key `key-1`, reorder hold 5 ms,
 * reconnect backoff from 4 ms with `random` 0.5; `over` replaces any of it.
 */
export function fakeUserStream(testScheduler: TestScheduler, over: Partial<UserStreamConfig> = {}) {
  const ws = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
  const user = userStream({
    url: USER_URL,
    listenKey$: of('key-1'),
    WebSocketCtor: ws.WebSocketCtor,
    scheduler: testScheduler,
    reorder: { maxDelayMs: 5 },
    connection: { reconnect: { minDelayMs: 4, random: () => 0.5 } },
    ...over,
  });
  return { ws, user };
}
