import { runReplayExample } from '../../docs/examples/replay/replayExample';

/** docs/examples/replay: record the simulator a few seconds, replay at full speed, the same VWAP as live. */
describe('docs/examples/replay', () => {
  it('prints the same VWAP for the live run and the replay (4 s recorded, replayed in virtual time)', async () => {
    const lines: string[] = [];
    const result = await runReplayExample({ seconds: 4, print: (line) => lines.push(line) });
    expect(result.live.trades).toBeGreaterThan(0);
    expect(result.replayed).toEqual(result.live);
    expect(result.virtualMs).toBeGreaterThanOrEqual(3900);
    expect(result.messages).toBeGreaterThan(10);
    expect(lines[lines.length - 1]).toBe('same result: yes');
  });
});
