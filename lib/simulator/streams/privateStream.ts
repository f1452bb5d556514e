import type { WebSocket } from 'ws';
import { isRecord } from '../../internal/guards';
import { clientNumber, clientText } from '../http/clientInput';
import type { SimContext } from '../core/context';
import type { ListenKeyEnd } from './listenKeys';
import type { Peer } from './peers';
import { randomAlnum } from '../core/random';
import type { PrivateEventKind } from '../chaos/sentReport';

/** A private event ready to push: its JSON object text and what `sent()` records. @internal */
export interface PrivateEventOut {
  readonly kind: PrivateEventKind;
  readonly E: number;
  readonly id: string;
  readonly status?: string;
  readonly json: string;
}

/** Close codes of the private stream (documented). @internal */
export const PRIVATE_CLOSE = {
  invalidKey: { code: 4001, reason: 'invalid listen key' },
  expiredKey: { code: 4001, reason: 'listen key expired' },
  deletedKey: { code: 4001, reason: 'listen key deleted' },
  idle: { code: 4002, reason: 'no heartbeat for too long' },
} as const;

interface Session {
  readonly peer: Peer;
  readonly key: string;
  readonly channelId: string;
  readonly pingsSent: Set<number>;
}

/** @internal */
export interface PrivateConfig {
  readonly pingIntervalMs: number;
  readonly idleTimeoutMs: number;
  readonly batch: boolean;
  readonly random: () => number;
  readonly isActive: (key: string) => boolean;
}

const textOf = (data: WebSocket.RawData): string =>
  Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');

/**
 * The private streams: one session per connection on an active listen key, server pings, answers to client
 * pings, idle close, and the account's events (with optional batching, duplication and reordering).
 * @internal
 */
export class PrivateStreams {
  private readonly sessions = new Set<Session>();

  constructor(
    private readonly ctx: SimContext,
    private readonly config: PrivateConfig,
  ) {}

  serve(peer: Peer, key: string): void {
    if (!this.config.isActive(key)) {
      peer.close(PRIVATE_CLOSE.invalidKey.code, PRIVATE_CLOSE.invalidKey.reason);
      return;
    }
    const { ctx, config } = this;
    const session: Session = { peer, key, channelId: randomAlnum(config.random, 16), pingsSent: new Set() };
    this.sessions.add(session);
    const stopPing = ctx.timers.every(config.pingIntervalMs, () => {
      const ts = ctx.serverTime();
      if (peer.send(JSON.stringify({ ping: ts, channelId: session.channelId }))) session.pingsSent.add(ts);
    });
    let stopIdle = (): void => undefined;
    const armIdle = (): void => {
      stopIdle();
      stopIdle = ctx.timers.after(config.idleTimeoutMs, () => peer.close(PRIVATE_CLOSE.idle.code, PRIVATE_CLOSE.idle.reason));
    };
    armIdle();
    peer.ws.on('close', () => {
      stopPing();
      stopIdle();
      this.sessions.delete(session);
    });
    peer.ws.on('message', (data) => peer.receive(() => this.onMessage(session, data, armIdle)));
  }

  private onMessage(session: Session, data: WebSocket.RawData, armIdle: () => void): void {
    const { ctx } = this;
    const { peer } = session;
    let msg: unknown;
    try {
      msg = JSON.parse(textOf(data));
    } catch {
      return;
    }
    if (!isRecord(msg)) return;
    const m = msg;
    const at = ctx.serverTime();
    if (m['ping'] !== undefined) {
      // the client's value is echoed verbatim; only a scalar is (an object could be anything, a deep nesting)
      if (typeof m['ping'] !== 'number' && typeof m['ping'] !== 'string') return;
      ctx.recorder.pings.push({ stream: 'private', connection: peer.id, ts: clientNumber(m['ping']), at });
      armIdle();
      peer.send(`{"pong":${JSON.stringify(m['ping'])},"channelId":${JSON.stringify(session.channelId)}}`);
    } else if (m['pong'] !== undefined) {
      const ts = clientNumber(m['pong']);
      ctx.recorder.pongs.push({ stream: 'private', connection: peer.id, ts, matched: session.pingsSent.has(ts), at });
      armIdle();
    } else if (m['event'] === 'sub' && typeof m['topic'] === 'string') {
      const params = isRecord(m['params']) ? m['params'] : {};
      ctx.recorder.subscriptions.push({
        stream: 'private',
        connection: peer.id,
        symbol: clientText(m['symbol']),
        topic: m['topic'],
        binary: params['binary'] === true || params['binary'] === 'true',
        id: clientText(m['id']),
        at,
      });
    } else if (m['event'] === 'cancel' || m['event'] === 'cancel_all') {
      ctx.recorder.cancels.push({
        stream: 'private',
        connection: peer.id,
        event: m['event'],
        symbol: clientText(m['symbol']),
        topic: clientText(m['topic']),
        id: clientText(m['id']),
        at,
      });
    }
  }

  /** Closes the sessions of a key that stopped being valid. */
  endKey(key: string, why: ListenKeyEnd): void {
    const close = why === 'deleted' ? PRIVATE_CLOSE.deletedKey : PRIVATE_CLOSE.expiredKey;
    for (const s of this.sessions) if (s.key === key) s.peer.close(close.code, close.reason);
  }

  /** Events pushed on demand to go out with the next operation's (`pushPrivateEvent` with `withNext`). */
  private held: PrivateEventOut[] = [];

  /** An event on demand (`pushPrivateEvent`): pushed now, or held to go first in the next operation's push. */
  push(event: PrivateEventOut, withNext: boolean): void {
    if (withNext) this.held.push(event);
    else this.publish([event]);
  }

  /** Pushes the events of one operation (after those held for it). */
  publish(operation: readonly PrivateEventOut[]): void {
    const events = this.held.length === 0 ? operation : [...this.held, ...operation];
    this.held = [];
    if (events.length === 0) return;
    const { faults, timers } = this.ctx;
    const numbered = events.map((e) => ({ event: e, seq: ++this.seq }));
    const frames = this.config.batch ? [numbered] : numbered.map((e) => [e]);
    for (const frame of frames) {
      const copies = this.config.random() < faults.duplicateProbability ? 2 : 1;
      if (copies > 1) faults.counts.duplicatedPrivateFrames += 1;
      for (let copy = 0; copy < copies; copy++) {
        const delay = faults.reorderWindowMs > 0 ? Math.floor(this.config.random() * faults.reorderWindowMs) : 0;
        if (delay === 0) this.deliver(frame, copy);
        else {
          faults.counts.delayedPrivateFrames += 1;
          timers.after(delay, () => this.deliver(frame, copy));
        }
      }
    }
  }

  private seq = 0;

  private deliver(frame: ReadonlyArray<{ readonly event: PrivateEventOut; readonly seq: number }>, copy: number): void {
    const text = `[${frame.map((e) => e.event.json).join(',')}]`;
    let sessions = 0;
    for (const s of this.sessions) if (this.config.isActive(s.key) && s.peer.send(text)) sessions += 1;
    const at = this.ctx.clock.now();
    for (const { event: e, seq } of frame) {
      this.ctx.recorder.privateEvent(
        { kind: e.kind, E: e.E, id: e.id, ...(e.status !== undefined ? { status: e.status } : {}), sessions },
        { seq, copy, kind: e.kind, E: e.E, at, sessions, text: e.json },
      );
    }
  }
}
