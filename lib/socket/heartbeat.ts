import type { ServerClockSampler } from './serverClock';

/** A millisecond time field: a number, or numeric text (the codecs' tolerance). @internal */
function timeField(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value !== '' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** Per-socket heartbeat bookkeeping. @internal */
export interface HeartbeatState {
  /** When our pings not answered yet left (local ms), oldest first; at most {@link PENDING_PINGS}. */
  readonly pingsSentAt: number[];
  /** The server time of the last public pong received (when the service wrote it, on its clock), if any. */
  lastPongServerTime: number | undefined;
}

/** Most pings remembered as waiting for their pong (the oldest are forgotten: a service that answers none). */
const PENDING_PINGS = 8;

/**
 * Records a ping sent at `at`. A public pong answers the oldest ping not answered yet: over one TCP stream the
 * service answers in order (the SPEC: every ping is answered), so a round trip longer than the ping interval is
 * still measured from its own ping (taking the last ping sent would measure it short, and the clock estimate
 * prefers short round trips: an error too small makes a gap start too late). A ping a service leaves unanswered
 * makes the round trips after it measure a ping interval long: a wider error than the truth, never a narrower
 * one, until the connection's next socket. @internal
 */
export function pingSent(state: HeartbeatState, at: number): void {
  if (state.pingsSentAt.push(at) > PENDING_PINGS) state.pingsSentAt.shift();
}

/**
 * Heartbeat handling of one decoded message, by structural checks only (this runs for every frame):
 * - a server ping `{ ping, channelId }` is answered with `{ pong: ping }` through `reply`;
 * - a private pong `{ pong, channelId }` echoes our ping: round trip `now - pong`;
 * - a public pong `{ pong }` carries the server time: an offset sample against the oldest ping not answered yet.
 * Anything else is left alone.
 * @internal
 */
export function handleHeartbeat(
  message: unknown,
  now: number,
  state: HeartbeatState,
  clock: ServerClockSampler,
  reply: (text: string) => void,
): void {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
  const m = message as { readonly ping?: unknown; readonly pong?: unknown; readonly channelId?: unknown };
  if (m.ping !== undefined) {
    const ping = timeField(m.ping);
    if (ping !== undefined) reply(`{"pong":${ping}}`);
    return;
  }
  if (m.pong === undefined) return;
  const pong = timeField(m.pong);
  if (pong === undefined) return;
  if (m.channelId !== undefined) {
    if (pong <= now) clock.rtt(now - pong);
    return;
  }
  state.lastPongServerTime = pong;
  const sentAt = state.pingsSentAt.shift();
  if (sentAt === undefined || sentAt > now) return;
  const rtt = now - sentAt;
  clock.sample(pong - (sentAt + rtt / 2), rtt);
}
