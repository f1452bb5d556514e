import type { AddressInfo } from 'node:net';
import * as E from 'fp-ts/Either';
import { firstValueFrom, take, toArray } from 'rxjs';
import { WebSocketServer } from 'ws';
import { decodeWith } from '../../lib/codecs/decode';
import { DepthRecordCodec } from '../../lib/codecs/depth';
import { marketStreams } from '../../lib/market/marketStreams';
import { REAL_SYMBOL, realFrame } from '../bench/realFrames';

/**
 * Integration, real socket on 127.0.0.1: a real-shaped book (its levels read by the scanner of
 * `lib/frame/levelsJson.ts`, marked for the depth check) arrives as `JSON.parse` would give it, and the
 * mark does not outlive the frame: a level the subscriber changes is checked in full when decoded again.
 */
describe('book levels scanned in the JSON step, over a real socket', () => {
  it('delivers the levels as JSON.parse gives them, and a record changed by the user fails its codec', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    // The third book carries a levels-like field of its own (`z`): scanned, marked, read by no check.
    const third = realFrame('depth', 3).toString();
    const levelsOf = (text: string): string => text.slice(text.indexOf('"a":[[') + 4, text.indexOf(',"b":[['));
    const frames = [realFrame('depth', 1).toString(), realFrame('depth', 2).toString(), third.replace('"o":0,', `"o":0,"z":${levelsOf(third)},`)];
    wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { event?: string };
        if (m.event === 'sub') for (const f of frames) ws.send(f);
      });
    });
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/quote/ws/v1`;
    const market = marketStreams({ url });
    const checkedAgain: boolean[] = [];
    try {
      const records = await firstValueFrom(
        market.depth(REAL_SYMBOL).pipe(
          take(3),
          toArray(),
        ),
      );
      for (let k = 0; k < 2; k++) {
        const expected = (JSON.parse(frames[k]!) as { data: { a: unknown; b: unknown }[] }).data[0]!;
        expect(records[k]!.a).toEqual(expected.a);
        expect(records[k]!.b).toEqual(expected.b);
        expect(records[k]!.a).toHaveLength(200);
        // The user changes a level and decodes the record again: the codec checks it in full.
        (records[k]!.a as unknown as string[][])[0]![0] = 'abc';
        checkedAgain.push(E.isLeft(decodeWith(DepthRecordCodec, records[k])));
      }
      // A level array no check read in its frame is not taken for checked later either.
      const extra = (records[2] as unknown as { z: string[][] }).z;
      expect(extra).toHaveLength(200);
      extra[0]![0] = 'abc';
      checkedAgain.push(E.isLeft(decodeWith(DepthRecordCodec, { ...records[2], a: extra })));
      expect(checkedAgain).toEqual([true, true, true]);
    } finally {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
  });
});
