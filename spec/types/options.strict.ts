/**
 * A "user project" file: an app that forwards its own optional settings to the library, as code does under
 * `exactOptionalPropertyTypes` (a setting read from a file or the environment is `T | undefined`). Every
 * optional field of the public configs accepts an explicit `undefined` (meaning: the default), so this
 * compiles with no spread-if-defined dance and no cast. Type-checked against the built package under the
 * strictest settings (`tsconfig.strictest.json`, `scripts/check-strict-consumers.ts`), never run.
 */
import type { SchedulerLike } from 'rxjs';
import { marketStreams, orderBook, restClient } from 'ex-streams';
import { reconnect } from 'ex-streams/connection';
import { signer } from 'ex-streams/signing';
import { startSimulator } from 'ex-streams/simulator';
import { testExchange } from 'ex-streams/testing';

/** What a user's settings file may hold: every entry may be missing. */
export interface AppSettings {
  readonly streamUrl: string;
  readonly restUrl: string;
  readonly symbol?: string | undefined;
  readonly binary?: boolean | undefined;
  readonly pingIntervalMs?: number | undefined;
  readonly recvWindow?: number | undefined;
  readonly apiKeyHeader?: string | undefined;
  readonly levels?: number | undefined;
  readonly maxDelayMs?: number | undefined;
  readonly port?: number | undefined;
  readonly scheduler?: SchedulerLike | undefined;
}

export function fromSettings(settings: AppSettings): void {
  const { scheduler } = settings;
  const market = marketStreams({
    url: settings.streamUrl,
    binary: settings.binary,
    scheduler,
    connection: { pingIntervalMs: settings.pingIntervalMs, reconnect: { maxDelayMs: settings.maxDelayMs } },
    staleAfterMs: { depth: settings.pingIntervalMs },
  });
  market.depth('BTCUSDT').pipe(orderBook({ levels: settings.levels })).subscribe((book) => console.log(book.spread));

  const rest = restClient({
    baseUrl: settings.restUrl,
    apiKey: process.env['EX_STREAMS_API_KEY'],
    secretKey: process.env['EX_STREAMS_SECRET_KEY'],
    apiKeyHeader: settings.apiKeyHeader,
    recvWindow: settings.recvWindow,
    scheduler,
  });
  rest.serverTime().pipe(reconnect({ maxDelayMs: settings.maxDelayMs, scheduler })).subscribe((t) => console.log(t.serverTime));
  rest.openOrders({ symbol: settings.symbol, limit: settings.levels }).subscribe((orders) => console.log(orders.length));
  signer({ secretKey: process.env['EX_STREAMS_SECRET_KEY'], recvWindow: settings.recvWindow })({ query: undefined, body: { a: '1' } });

  testExchange({ scheduler });
  void startSimulator({ port: settings.port, apiKeyHeader: settings.apiKeyHeader }).then((sim) => sim.close());
}
