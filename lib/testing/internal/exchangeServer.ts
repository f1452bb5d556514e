import { type SchedulerLike, Subject } from 'rxjs';
import type { FakeSocketLog } from '../fakeWebSocket';
import { classifyFrame, type ExchangeStream, type SentFrame, symbolsOf } from '../sentFrame';
import type { TestListenKeys } from '../testListenKeys';
import { zipFrame } from '../zipFrame';
import { ExchangeSocket, type SocketHooks } from './exchangeSocket';
import type { RunLimit } from './runLimit';
import type { CloseSpec, ScriptStep } from './script';
import { isRecord } from '../../internal/guards';

/** Settings of the server side of a test exchange (see `TestExchangeConfig`). @internal */
export interface ServerSettings {
  readonly scheduler: SchedulerLike;
  readonly openDelayMs: number;
  readonly answerSubscriptions: boolean;
  readonly answerPings: boolean;
  readonly serverTimeOffsetMs: number;
  readonly matchSubscriptions: boolean;
  /** Keep the frames clients send (`frames`, the sockets' `sent`). Default `true`. */
  readonly recordSent?: boolean | undefined;
}

/** A script played on each matching connection from its open. @internal */
interface ConnectionScript {
  readonly connection: number | 'each';
  readonly steps: readonly ScriptStep[];
}

/** The server's state of one stream. @internal */
export interface StreamSide {
  readonly sockets: ExchangeSocket[];
  readonly logs: FakeSocketLog[];
  opened: number;
  stalled: boolean;
  /** Sockets whose handshake waits for the end of a stall. */
  readonly pending: ExchangeSocket[];
  refusal: { remaining: number; readonly until: number; readonly code: number } | undefined;
  readonly scripts: ConnectionScript[];
}

const side = (): StreamSide => ({ sockets: [], logs: [], opened: 0, stalled: false, pending: [], refusal: undefined, scripts: [] });


const isRaw = (u: unknown): u is string | ArrayBuffer | ArrayBufferView =>
  typeof u === 'string' || u instanceof ArrayBuffer || ArrayBuffer.isView(u);

/** `kline` + `klineType: "1m"` answers `kline_1m`. */
function requestTopic(envelope: Record<string, unknown>): string {
  const params = isRecord(envelope['params']) ? envelope['params'] : {};
  return envelope['topic'] === 'kline' && typeof params['klineType'] === 'string' ? `kline_${params['klineType']}` : String(envelope['topic']);
}

/**
 * The scheduler-driven server behind a test exchange: accepts (or refuses, or stalls) sockets, records
 * what clients send, answers subscriptions and pings, plays scripts and closes sockets.
 * @internal
 */
export class ExchangeServer implements SocketHooks {
  readonly sides: Record<ExchangeStream, StreamSide> = { public: side(), private: side() };
  readonly frames: SentFrame[] = [];
  readonly sent$ = new Subject<SentFrame>();
  /** Every socket constructed, after its handshake was scheduled (a replay waits on it at speed `Infinity`). */
  readonly created$ = new Subject<ExchangeSocket>();
  private readonly scheduler: SchedulerLike;

  constructor(
    readonly settings: ServerSettings,
    private readonly listenKeys: () => TestListenKeys,
    private readonly limit: RunLimit,
  ) {
    this.scheduler = settings.scheduler;
  }

  /** Runs `action` at virtual time `at` (default: now, after the current action); a given `at` is a scripted event. */
  at(at: number | undefined, action: () => void): void {
    const now = this.scheduler.now();
    this.limit.extend(at);
    this.scheduler.schedule(action, Math.max(0, (at ?? now) - now));
  }

  created(socket: ExchangeSocket): void {
    const s = this.sides[socket.stream];
    s.sockets.push(socket);
    s.logs.push(socket.log);
    this.limit.check();
    this.scheduler.schedule(() => this.handshake(socket), this.settings.openDelayMs);
    this.created$.next(socket);
  }

  sent(socket: ExchangeSocket, text: string): void {
    const { kind, frame } = classifyFrame(text);
    const record: SentFrame = { time: this.scheduler.now(), stream: socket.stream, connection: socket.connection, kind, frame, text };
    if (this.settings.recordSent !== false) this.frames.push(record);
    this.sent$.next(record);
    this.limit.check();
    if (!isRecord(frame)) return;
    switch (kind) {
      case 'sub': {
        if (socket.stream !== 'public') return;
        // A batched request names several symbols, comma-joined: each is a subscription of its own, answered alone
        // with the request's id (as the simulator does).
        const binary = isRecord(frame['params']) && (frame['params']['binary'] === true || frame['params']['binary'] === 'true');
        for (const symbol of symbolsOf(frame)) {
          socket.live.set(`${symbol}|${String(frame['topic'])}`, { id: String(frame['id']), binary });
          if (this.settings.answerSubscriptions) {
            this.reply(socket, { id: String(frame['id']), code: '0', msg: 'Success', event: 'sub', symbol, topic: frame['topic'] });
          }
        }
        return;
      }
      case 'cancel':
        for (const symbol of symbolsOf(frame)) socket.live.delete(`${symbol}|${String(frame['topic'])}`);
        return;
      case 'cancel_all':
        socket.live.clear();
        return;
      case 'ping':
        if (!this.settings.answerPings) return;
        this.reply(
          socket,
          socket.stream === 'public'
            ? { pong: this.scheduler.now() + this.settings.serverTimeOffsetMs }
            : { pong: frame['ping'], channelId: `test-channel-${socket.connection}` },
        );
        return;
      case 'pong':
      case 'other':
        return;
      default: {
        const never: never = kind;
        return never;
      }
    }
  }

  /** Sends `value` to `socket` if it is open and its stream is not stalled. */
  deliver(socket: ExchangeSocket, value: unknown): void {
    if (socket.readyState !== 1 || this.sides[socket.stream].stalled) return;
    socket.receive(this.encode(socket, value));
  }

  /** Closes `socket` from the server side: 1006 (default) is an abrupt drop, other codes a close frame. */
  close(socket: ExchangeSocket, { code = 1006, reason = '' }: CloseSpec): void {
    socket.closeFromServer({ code, reason, wasClean: code !== 1006 });
  }

  /** Plays `steps` from now: on `target`, or (hot) on every socket of `stream` open at each step. */
  play(stream: ExchangeStream, steps: readonly ScriptStep[], target?: ExchangeSocket): void {
    for (const step of steps) {
      this.scheduler.schedule(() => {
        const sockets = target ? [target] : [...this.sides[stream].sockets];
        for (const socket of sockets) {
          if (step.type === 'send') this.deliver(socket, step.value);
          else if (socket.readyState !== 3) this.close(socket, step.close);
        }
      }, step.frame);
    }
  }

  /** Plays `steps` relative to the open of connection `connection` (or each connection) of `stream`. */
  playPerConnection(stream: ExchangeStream, connection: number | 'each', steps: readonly ScriptStep[]): void {
    const s = this.sides[stream];
    s.scripts.push({ connection, steps });
    for (const socket of s.sockets) {
      if (socket.readyState === 1 && (connection === 'each' || socket.connection === connection)) this.play(stream, steps, socket);
    }
  }

  /** Marks `stream` stalled or not; at the end of a stall, the waiting handshakes complete. */
  setStalled(stream: ExchangeStream, stalled: boolean): void {
    const s = this.sides[stream];
    s.stalled = stalled;
    if (stalled) return;
    for (const socket of s.pending.splice(0)) this.handshake(socket);
  }

  /** Closes, with code 4001, the private sockets of a key that is no longer valid. */
  keyInvalidated(key: string, reason: string): void {
    this.at(undefined, () => {
      for (const socket of this.sides.private.sockets) {
        if (socket.listenKey === key && socket.readyState !== 3) this.close(socket, { code: 4001, reason });
      }
    });
  }

  private handshake(socket: ExchangeSocket): void {
    if (socket.readyState !== 0) return;
    const s = this.sides[socket.stream];
    if (s.stalled) {
      s.pending.push(socket);
      return;
    }
    const refusal = s.refusal;
    if (refusal && refusal.remaining > 0 && this.scheduler.now() < refusal.until) {
      refusal.remaining -= 1;
      socket.closeFromServer({ code: refusal.code, reason: '', wasClean: refusal.code !== 1006 });
      return;
    }
    s.opened += 1;
    socket.connection = s.opened;
    socket.open();
    const key = socket.listenKey;
    const keys = this.listenKeys();
    if (key !== undefined && keys.issued(key) && !keys.isValid(key)) {
      this.at(undefined, () => socket.readyState === 1 && this.close(socket, { code: 4001, reason: 'invalid listen key' }));
    }
    for (const script of s.scripts) {
      if (script.connection === 'each' || script.connection === socket.connection) this.play(socket.stream, script.steps, socket);
    }
  }

  private reply(socket: ExchangeSocket, value: unknown): void {
    this.at(undefined, () => this.deliver(socket, value));
  }

  /** Objects are JSON; an envelope without `id` gets the live subscription's id, zipped if it asked for binary. */
  private encode(socket: ExchangeSocket, value: unknown): string | ArrayBuffer | ArrayBufferView {
    if (isRaw(value)) return value;
    if (!this.settings.matchSubscriptions || !isRecord(value) || !('data' in value) || typeof value['symbol'] !== 'string') {
      return JSON.stringify(value);
    }
    const live = socket.live.get(`${value['symbol']}|${requestTopic(value)}`);
    if (live === undefined) return JSON.stringify(value);
    const text = JSON.stringify(value['id'] === undefined ? { ...value, id: live.id } : value);
    return live.binary ? zipFrame(text) : text;
  }
}
