import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { DecodeError } from '../../lib/errors';
import { loadRecording } from '../../lib/node';
import { replayMarket, tradeEnvelope, tradeRecord, type RecordedEvent, type RecordingCorruptError, type RecordingUnreadableError } from '../../lib/testing';
import { recordedLine } from '../../lib/testing/recording';

const line = (e: RecordedEvent): string => `${JSON.stringify(e)}\n`;
const trade = (t: number, v: string): RecordedEvent => ({ t, k: 'f', d: JSON.stringify(tradeEnvelope(tradeRecord({ v, t }), { first: v === '1', sendTime: t })) });

/** gzip of `text` flushed with Z_SYNC_FLUSH and never finished: what a recorder killed after a flush leaves. */
function unfinishedGzip(text: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const gz = createGzip();
    const chunks: Buffer[] = [];
    gz.on('data', (c: Buffer) => chunks.push(c));
    gz.write(text);
    gz.flush(constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(chunks)));
  });
}

describe('loadRecording', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'exs-load-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file cut by a crash (no gzip trailer, the last line cut) and names the lines it cannot read; the replay reports them on errors$ and plays the rest', async () => {
    const good = [line({ t: 1000, k: 'open', epoch: 1 }), line(trade(1001, '1')), '{"t":1002,"k":"f"}\n', 'not json\n', line(trade(1003, '2'))].join('');
    writeFileSync(join(dir, 'market-a-0001.jsonl.gz'), await unfinishedGzip(`${good}{"t":1004,"k":"f","d":"{\\"sym`));
    writeFileSync(join(dir, 'market-a-0000.jsonl.gz'), gzipSync(line({ t: 900, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade'] })));
    writeFileSync(join(dir, 'notes.txt'), 'not a recording file');

    const recording = await loadRecording(dir);
    expect(recording.files.map((f) => f.slice(dir.length + 1))).toEqual(['market-a-0000.jsonl.gz', 'market-a-0001.jsonl.gz']);
    expect(recording.events.map((e) => e.t)).toEqual([900, 1000, 1001, 1003]);
    expect(recording.corrupt.map((c) => [c.file, c.line, c.afterTime, c.error instanceof DecodeError && c.error.kind])).toEqual([
      ['market-a-0001.jsonl.gz', 3, 1001, 'codec'],
      ['market-a-0001.jsonl.gz', 4, 1001, 'json'],
      ['market-a-0001.jsonl.gz', 6, 1003, 'json'],
    ]);
    expect(recording.corrupt.every((c) => c.error instanceof DecodeError)).toBe(true);

    const testScheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    testScheduler.run(({ expectObservable }) => {
      const replay = replayMarket(recording, { scheduler: testScheduler });
      expectObservable(replay.trades('BTCUSDT').pipe(map((t) => t.v))).toBe('101ms a 1ms (b|)', { a: '1', b: '2' });
      expectObservable(replay.errors$.pipe(map((e) => (e as DecodeError).kind), toArray())).toBe('103ms (a|)', { a: ['codec', 'json', 'json'] });
    });
  });

  it('gives none of the lines of a file of format 1 or 2 whose compressed data is damaged (its one checksum cannot place the damage): one RecordingCorruptError at line 1, never throwing', async () => {
    const events: RecordedEvent[] = [{ t: 1000, k: 'open', epoch: 1 }, ...Array.from({ length: 2000 }, (_, i) => trade(1001 + i, String(i + 1)))];
    const gz = gzipSync(events.map(line).join(''));
    for (let i = Math.floor(gz.length / 2); i < Math.floor(gz.length / 2) + 64; i++) gz[i] = 0xff; // damage in the middle
    writeFileSync(join(dir, 'market-b-0001.jsonl.gz'), gz);
    writeFileSync(join(dir, 'market-b-0002.jsonl.gz'), gzipSync(line(trade(5000, '9'))));
    const recording = await loadRecording(dir);
    expect(recording.corrupt.map((c) => [c.file, c.line, c.error.name, (c.error as RecordingCorruptError).damage])).toEqual([
      ['market-b-0001.jsonl.gz', 1, 'RecordingCorruptError', 'compressed'],
    ]);
    expect(recording.events).toEqual([trade(5000, '9')]); // the next file is read
  });

  it('with { lazy: true } reads the same lines as they are played: the replay emits what it emits from the eager recording, corrupt lines at the same times', async () => {
    const good = [line({ t: 1000, k: 'open', epoch: 1 }), line(trade(1001, '1')), '{"t":1002,"k":"f"}\n', 'not json\n', line(trade(1003, '2'))].join('');
    writeFileSync(join(dir, 'market-a-0001.jsonl.gz'), await unfinishedGzip(`${good}{"t":1004,"k":"f","d":"{\\"sym`));
    writeFileSync(join(dir, 'market-a-0000.jsonl.gz'), gzipSync(line({ t: 900, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade'] })));
    const eager = await loadRecording(dir);
    const lazy = await loadRecording(dir, { lazy: true });
    expect(lazy.files).toEqual(eager.files);
    const lines = [...lazy.lines];
    expect([...lazy.lines]).toEqual(lines); // each iteration from the first line
    expect(lines.filter((l) => 'k' in l)).toEqual(eager.events);
    expect(lines.filter((l) => 'error' in l)).toEqual(eager.corrupt);

    for (const recording of [eager, lazy]) {
      const testScheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
      testScheduler.run(({ expectObservable }) => {
        const replay = replayMarket(recording, { scheduler: testScheduler });
        expectObservable(replay.trades('BTCUSDT').pipe(map((t) => t.v))).toBe('101ms a 1ms (b|)', { a: '1', b: '2' });
        expectObservable(replay.errors$.pipe(map((e) => `${testScheduler.now()} ${(e as DecodeError).kind}`), toArray())).toBe('103ms (a|)', {
          a: ['101 codec', '101 json', '103 json'],
        });
      });
    }
  });

  it('with { lazy: true } replays many lines in order without reading them first (a recording longer than one chunk of text)', async () => {
    const events: RecordedEvent[] = [{ t: 1000, k: 'open', epoch: 1 }, ...Array.from({ length: 20_000 }, (_, i) => trade(1001 + i, String(i + 1))), { t: 30_000, k: 'close', code: 1000, clean: true }];
    writeFileSync(join(dir, 'market-c-0001.jsonl.gz'), gzipSync(events.map(line).join('')));
    const lazy = await loadRecording(dir, { lazy: true });
    expect([...lazy.lines]).toEqual(events);
    // lines across the gunzip's 1 MiB chunks, multi-byte characters cut by them too (format 2 lines: text as is)
    const texts = Array.from({ length: 30_000 }, (_, i): RecordedEvent => ({ t: 2000 + i, k: 'f', d: `{"n":${i},"s":"${'é€😀'.repeat(1 + (i % 7))}"}` }));
    writeFileSync(join(dir, 'market-c-0001.jsonl.gz'), gzipSync(texts.map((e) => `${recordedLine(e)}\n`).join('')));
    expect([...(await loadRecording(dir, { lazy: true })).lines]).toEqual(texts);
    expect((await loadRecording(dir)).events).toEqual(texts);
    const testScheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    let ids: string[] = [];
    testScheduler.run(() => {
      replayMarket(lazy, { scheduler: testScheduler }).trades('BTCUSDT').pipe(map((t) => t.v), toArray()).subscribe((v) => (ids = v));
    });
    expect(ids).toEqual(events.flatMap((e) => (e.k === 'f' ? [JSON.parse(e.d).data[0].v as string] : [])));
  });

  it('rejects a source that does not exist with a RecordingUnreadableError (not-found)', async () => {
    const error = (await loadRecording(join(dir, 'missing')).catch((e: unknown) => e)) as RecordingUnreadableError;
    expect([error.name, error.reason]).toEqual(['RecordingUnreadableError', 'not-found']);
    expect(error.message).toMatch(/missing: no recording there \(ENOENT/);
  });
});
