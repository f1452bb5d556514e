import type { AddressInfo } from 'node:net';
import { firstValueFrom, take, toArray, timeout } from 'rxjs';
import { WebSocketServer } from 'ws';
import { marketStreams } from '../../lib/market/marketStreams';
import type { BookGap } from '../../lib/operators/incrementalBook';
import { until } from '../helpers/until';

/**
 * V1 merged books against a small ws server on 127.0.0.1 replaying frames shaped as the BHEX-family quote notes
 * document them (the "mergedDepth / diffMergedDepth" subscription with a required `dumpScale` as text, and the
 * incremental depth's rules: the first message is the whole book, then changes, a quantity of 0 deletes the level;
 * the examples "add", "change", "delete" below are theirs) and as a third-party probe of HashKey's live V1 stream saw
 * them (`o` 0 for the snapshot, then rising by one).
 */
describe('diffMergedDepth frames from the documentation, over a real socket', () => {
  it('keeps the book through add, change and delete; a skipped o is a gap, then cancel, sub, and the fresh snapshot heals it', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const received: Record<string, unknown>[] = [];
    let subs = 0;
    const envelope = (data: object, f: boolean) => ({ symbol: 'LTCBTC', symbolName: 'LTCBTC', topic: 'diffMergedDepth', params: { dumpScale: '2', binary: 'false' }, data: [data], f });
    const record = (o: number, b: string[][], a: string[][]) => ({ e: 301, s: 'LTCBTC', t: 1_700_000_000_000 + o, v: `${o}_301`, o, b, a });
    wss.on('connection', (ws) => {
      ws.on('message', (raw) => {
        const frame = JSON.parse(String(raw)) as Record<string, unknown>;
        if (frame['ping'] !== undefined) return;
        received.push(frame);
        if (frame['event'] !== 'sub') return;
        const send = (value: object): void => ws.send(JSON.stringify(value));
        if (++subs === 1) {
          send(envelope(record(0, [], []), true)); // initial state: bids [] asks []
          send(envelope(record(1, [['1', '2']], []), false)); // add: bids [[1, 2]]
          send(envelope(record(2, [['1', '4']], [['3', '1']]), false)); // change: bids [[1, 4]]
          send(envelope(record(3, [['1', '0']], []), false)); // delete: bids []
          send(envelope(record(5, [['0.5', '1']], []), false)); // o 4 lost
        } else {
          send(envelope(record(0, [['0.9', '7']], [['3', '1']]), true));
        }
      });
    });
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/quote/ws/v1`;
    const market = marketStreams({ url });
    const gaps: BookGap[] = [];
    const gapSub = market.bookGaps$.subscribe((g) => gaps.push(g));
    try {
      const books = await firstValueFrom(market.incrementalBook('LTCBTC', { dumpScale: 2 }).pipe(take(5), toArray(), timeout(5000)));
      expect(books.map((b) => [b.bids, b.asks])).toEqual([
        [[], []],
        [[['1', '2']], []],
        [[['1', '4']], [['3', '1']]],
        [[], [['3', '1']]],
        [[['0.9', '7']], [['3', '1']]], // after the gap: the fresh snapshot, not o 5 applied to a book missing o 4
      ]);
      expect(gaps).toEqual([{ symbol: 'LTCBTC', reason: 'skipped', expected: '4', received: '5', time: 1_700_000_000_005 }]);
      await until(() => received.filter((f) => f['event'] === 'cancel').length >= 2, 'the last cancel');
      // the documented request: topic diffMergedDepth, dumpScale (text) in params
      expect(received.filter((f) => f['topic'] === 'diffMergedDepth').map((f) => [f['event'], f['params']])).toEqual([
        ['sub', { binary: false, dumpScale: '2' }],
        ['cancel', { binary: false, dumpScale: '2' }],
        ['sub', { binary: false, dumpScale: '2' }],
        ['cancel', { binary: false, dumpScale: '2' }],
      ]);
    } finally {
      gapSub.unsubscribe();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
  });
});
