import { map, type Observable } from 'rxjs';
import type { TradeRecord } from '../../codecs/trade';
import { DecodeError } from '../../errors';
import type { RestCalls } from '../../rest/callTypes';

/**
 * `GET /quote/v1/trades` as stream trade records for a backfill: `v` is the trade id, `ibm` (the buyer was the
 * maker) is the stream's `m`. An answer without ids cannot be merged by id: it fails with a `DecodeError`, so
 * the gap stays signalled. @internal
 */
export function restTrades(rest: Pick<RestCalls, 'trades'>, limit: number): (symbol: string) => Observable<TradeRecord[]> {
  return (symbol) =>
    rest.trades({ symbol, limit }).pipe(
      map((trades) =>
        trades.map((trade, i): TradeRecord => {
          const { v, ibm } = trade;
          if (v === undefined || ibm === undefined) {
            const field = v === undefined ? 'v' : 'ibm';
            throw new DecodeError('codec', `GET /quote/v1/trades: trade ${i} has no \`${field}\`, the trades cannot be merged by id`, [`${i}.${field}`]);
          }
          return { v, t: trade.t, p: trade.p, q: trade.q, m: ibm };
        }),
      ),
    );
}
