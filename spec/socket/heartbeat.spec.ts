import { handleHeartbeat, type HeartbeatState, pingSent } from '../../lib/socket/heartbeat';
import type { ServerClockSampler } from '../../lib/socket/serverClock';

/** A sampler that records what it is told. */
function recordingClock(): ServerClockSampler & { readonly calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    rtt: (rttMs: number) => calls.push(`rtt ${rttMs}`),
    sample: (offsetMs: number, rttMs: number) => calls.push(`sample ${offsetMs} ${rttMs}`),
    offsetMs: () => 0,
    rttMs: () => undefined,
  } as unknown as ServerClockSampler & { readonly calls: string[] };
}

function run(message: unknown, now: number, pingSentAt?: number) {
  const state: HeartbeatState = { pingsSentAt: pingSentAt === undefined ? [] : [pingSentAt], lastPongServerTime: undefined };
  const clock = recordingClock();
  const replies: string[] = [];
  handleHeartbeat(message, now, state, clock, (text) => replies.push(text));
  return { state, calls: clock.calls, replies };
}

describe('handleHeartbeat', () => {
  it('answers a server ping with a pong of the same time, number or numeric text', () => {
    expect(run({ ping: 1700000000000, channelId: 'c' }, 5).replies).toEqual(['{"pong":1700000000000}']);
    expect(run({ ping: '1700000000001' }, 5).replies).toEqual(['{"pong":1700000000001}']);
  });

  it('ignores a ping whose time is not a time (no reply, nothing sampled)', () => {
    for (const ping of ['', '12a', -1.5e400, Number.NaN, null, {}]) {
      const { replies, calls } = run({ ping }, 5, 1);
      expect(replies).toEqual([]);
      expect(calls).toEqual([]);
    }
  });

  it('takes a private pong (with channelId) as a round trip from the echoed ping', () => {
    expect(run({ pong: 1000, channelId: 'c' }, 1040).calls).toEqual(['rtt 40']);
    expect(run({ pong: '1000', channelId: 'c' }, 1000).calls).toEqual(['rtt 0']);
    expect(run({ pong: 2000, channelId: 'c' }, 1000).calls).toEqual([]);
  });

  it("samples a public pong's server time against our last ping, once", () => {
    const { state, calls } = run({ pong: 10_600 }, 1100, 1000);
    // sent at 1000, back at 1100: rtt 100, the server said 10 600 at local 1050.
    expect(calls).toEqual(['sample 9550 100']);
    expect(state.pingsSentAt).toEqual([]);
    expect(state.lastPongServerTime).toBe(10_600); // when the service wrote it
    expect(run({ pong: 10_600 }, 1100).calls).toEqual([]);
  });

  it('matches each public pong with the oldest ping not answered yet: a round trip longer than the ping interval is measured whole', () => {
    const state: HeartbeatState = { pingsSentAt: [], lastPongServerTime: undefined };
    const clock = recordingClock();
    const reply = (): void => undefined;
    // pings every 50 ms, the link takes 100 ms back: the pong of the ping at 0 arrives at 100, after the ping at 50
    pingSent(state, 0);
    pingSent(state, 50);
    handleHeartbeat({ pong: 10_000 }, 100, state, clock, reply);
    pingSent(state, 100);
    handleHeartbeat({ pong: 10_050 }, 150, state, clock, reply);
    expect(clock.calls).toEqual(['sample 9950 100', 'sample 9950 100']);
    expect(state.pingsSentAt).toEqual([100]);
  });

  it('remembers at most 8 pings waiting for their pong: the oldest are forgotten, so a round trip then measures long, never short', () => {
    const state: HeartbeatState = { pingsSentAt: [], lastPongServerTime: undefined };
    for (let at = 0; at < 100; at += 10) pingSent(state, at);
    expect(state.pingsSentAt).toEqual([20, 30, 40, 50, 60, 70, 80, 90]);
    const clock = recordingClock();
    handleHeartbeat({ pong: 10_095 }, 100, state, clock, () => undefined); // the pong of the ping at 90
    expect(clock.calls).toEqual(['sample 10035 80']); // measured against the ping at 20: longer, and its bound still holds
  });

  it('leaves everything else alone', () => {
    for (const message of [null, 'ping', 42, [{ ping: 1 }], { e: 'trade' }, { pong: 'soon' }, { pong: Infinity }]) {
      const { state, calls, replies } = run(message, 100, 50);
      expect([calls, replies, state.pingsSentAt]).toEqual([[], [], [50]]);
    }
  });
});
