import { handleHeartbeat, type HeartbeatState } from '../../lib/socket/heartbeat';
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
  const state: HeartbeatState = { pingSentAt };
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
    expect(state.pingSentAt).toBeUndefined();
    expect(run({ pong: 10_600 }, 1100).calls).toEqual([]);
  });

  it('leaves everything else alone', () => {
    for (const message of [null, 'ping', 42, [{ ping: 1 }], { e: 'trade' }, { pong: 'soon' }, { pong: Infinity }]) {
      const { state, calls, replies } = run(message, 100, 50);
      expect([calls, replies, state.pingSentAt]).toEqual([[], [], 50]);
    }
  });
});
