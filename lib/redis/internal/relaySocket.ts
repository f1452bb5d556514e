import type { SchedulerLike } from 'rxjs';
import type { WebSocketCloseEventLike, WebSocketCtor, WebSocketLike, WebSocketMessageEventLike } from '../../socket/webSocketLike';
import type { RelayReader, RelaySocketSink } from './relayReader';

/** Close code of a socket reset by a relay gap (a non-normal close: its connection starts a new epoch). @internal */
export const RELAY_GAP_CLOSE = 4010;

/**
 * A {@link WebSocketCtor} whose sockets speak the venue's public protocol over a {@link RelayReader}: `sub` and
 * `cancel` frames (symbols comma-joined; V2's, one symbol in `params`, each answered with code "0") add and drop
 * topics of interest, a `ping` is answered with a pong carrying the time once Redis answers a `PING`, and each entry of a topic of interest arrives as a `message` event with the
 * venue's frame text (its request id made this consumer's). It opens once Redis answers, and closes with 1006
 * when it cannot, or with {@link RELAY_GAP_CLOSE} on a gap. @internal
 */
export function relaySocketCtor(reader: RelayReader, scheduler: SchedulerLike, secretsFree: (error: unknown) => string): WebSocketCtor {
  let opened = 0;
  return class RelaySocket implements WebSocketLike, RelaySocketSink {
    readyState = 0;
    epoch = 0;
    binaryType = 'arraybuffer';
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: WebSocketMessageEventLike) => void) | null = null;
    onclose: ((event: WebSocketCloseEventLike) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;

    constructor(readonly url: string) {
      reader.attach(this).then(
        (attached) => {
          if (!attached) return; // closed while Redis was being asked (and detached then)
          this.readyState = 1;
          this.epoch = ++opened;
          this.onopen?.({ type: 'open' });
        },
        (e: unknown) => this.end(1006, `redis unavailable: ${secretsFree(e)}`, false),
      );
    }

    send(data: string): void {
      if (this.readyState !== 1) return;
      let request: { ping?: unknown; event?: unknown; symbol?: unknown; topic?: unknown; id?: unknown; params?: { symbol?: unknown; klineType?: unknown } | null };
      try {
        request = JSON.parse(data) as typeof request;
      } catch {
        return;
      }
      if (request.ping !== undefined) {
        void reader.ping(this).then((ok) => {
          if (ok && this.readyState === 1) this.deliver(`{"pong":${Math.round(scheduler.now())}}`);
        });
        return;
      }
      const { event, symbol, topic, id, params } = request;
      if (typeof topic !== 'string') return;
      if (typeof symbol === 'string') {
        for (const s of symbol.split(',')) {
          if (event === 'sub') reader.sub(s, topic, String(id));
          else if (event === 'cancel') reader.cancel(s, topic);
        }
        return;
      }
      // V2 (`market: { dialect: 'v2' }`): one symbol a request, a candle's interval in `params`, each request answered
      // as the venue answers it (echoed with code "0"), after this call; its frames carry no request id
      const pair = typeof params === 'object' && params !== null ? params.symbol : undefined;
      if (typeof pair !== 'string' || (event !== 'sub' && event !== 'cancel')) return;
      const interval = topic === 'kline' ? params?.klineType : undefined;
      const relayTopic = typeof interval === 'string' ? `kline_${interval}` : topic;
      if (event === 'sub') reader.sub(pair, relayTopic, '');
      else reader.cancel(pair, relayTopic);
      const answer = JSON.stringify({ ...request, code: '0', msg: 'Success' });
      queueMicrotask(() => this.deliver(answer));
    }

    close(code = 1000, reason = ''): void {
      this.end(code, reason, true);
    }

    deliver(frame: string): void {
      if (this.readyState === 1) this.onmessage?.({ data: frame });
    }

    reset(reason: string): void {
      this.end(RELAY_GAP_CLOSE, reason, false);
    }

    private end(code: number, reason: string, byClient: boolean): void {
      if (this.readyState === 3) return;
      this.readyState = 3;
      // Cursors are kept unless the client closed normally (its last subscriber left).
      reader.detach(this, !(byClient && code === 1000));
      if (!byClient) this.onerror?.({ type: 'error' });
      this.onclose?.({ code, reason, wasClean: byClient });
    }
  };
}
