import type { TestScheduler } from 'rxjs/testing';
import { connection, type ConnectionConfig } from '../../lib/socket/connection';
import { fakeWebSocket } from '../../lib/testing/fakeWebSocket';

/**
 * A `connection` over a scheduler-driven fake socket that opens at 1 ms (ping every 10 ms, a 1 s heartbeat
 * timeout), with `config` on top: the fake (to `receive` frames) and the connection.
 */
export function fakeConnection(testScheduler: TestScheduler, config: Partial<ConnectionConfig>) {
  const fake = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
  const conn = connection({
    url: 'ws://127.0.0.1/quote/ws/v1',
    WebSocketCtor: fake.WebSocketCtor,
    scheduler: testScheduler,
    pingIntervalMs: 10,
    heartbeatTimeoutMs: 1000,
    ...config,
  });
  return { fake, conn };
}
