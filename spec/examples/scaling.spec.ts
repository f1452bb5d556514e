import { runScalingExample } from '../../docs/examples/scaling/scalingExample';
import { describeWithRedis } from '../helpers/redisServer';

/** docs/examples/scaling: simulator, redis-server, one gateway, two consumer processes; everything stopped at the end. */
describeWithRedis('docs/examples/scaling', () => {
  it('runs a gateway and two consumer processes that print a spread and a VWAP, then stops them all', async () => {
    const printed: string[] = [];
    let bothPrinted: () => void = () => undefined;
    const until = new Promise<void>((resolve) => (bothPrinted = resolve));
    const print = (line: string): void => {
      printed.push(line);
      // two lines each: the first value at once, the next a second later
      if (['book', 'vwap'].every((kind) => printed.filter((l) => l.startsWith(`${kind} `)).length >= 2)) bothPrinted();
    };
    // at most 12 s; ends as soon as both consumers printed twice
    const result = await runScalingExample({ seconds: 12, print, until });
    expect(result.lines.book.length).toBeGreaterThan(0);
    expect(result.lines.vwap.length).toBeGreaterThan(0);
    expect(result.lines.book[0]).toMatch(/^book BTCUSDT: bid \d+(\.\d+)? ask \d+(\.\d+)? spread \d+(\.\d+)?$/);
    expect(result.lines.vwap[0]).toMatch(/^vwap ETHUSDT: \d+ trades, VWAP \d+\.\d{2}$/);
    expect(result.written).toBeGreaterThan(0);
    expect(printed[printed.length - 1]).toMatch(/^stopped \(the gateway wrote \d+ entries\)$/);
    expect(printed.filter((l) => /gateway: |stop: /.test(l) && !/venue open/.test(l))).toEqual([]);
  }, 30_000);
});
