import type { ServerClockSampler } from './serverClock';

/** A millisecond time field: a number, or numeric text (the codecs' tolerance). @internal */
function timeField(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value !== '' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** Per-socket heartbeat bookkeeping. @internal */
export interface HeartbeatState {
  /** When our last unanswered ping left (local ms), or `undefined`. */
  pingSentAt: number | undefined;
}

/**
 * Heartbeat handling of one decoded message, by structural checks only (this runs for every frame):
 * - a server ping `{ ping, channelId }` is answered with `{ pong: ping }` through `reply`;
 * - a private pong `{ pong, channelId }` echoes our ping: round trip `now - pong`;
 * - a public pong `{ pong }` carries the server time: an offset sample against our last ping.
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
  const sentAt = state.pingSentAt;
  if (sentAt === undefined) return;
  state.pingSentAt = undefined;
  const rtt = now - sentAt;
  clock.sample(pong - (sentAt + rtt / 2), rtt);
}
