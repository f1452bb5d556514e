import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { filter, firstValueFrom, take, timeout, toArray, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { crc32 } from '../../lib/internal/crc32';
import { RecordingFiles } from '../../lib/node/internal/recordingFiles';
import { loadRecording, type RecordingManifest, recordMarket } from '../../lib/node';
import type { RecordingCorruptError, RecordingUnreadableError } from '../../lib/testing';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { type CorruptLine, type RecordedEvent, replayMarket } from '../../lib/testing';

/**
 * Integration: a recording written by the recorder (the simulator on 127.0.0.1, real sockets, real files), then
 * damaged as disks and copies damage files: a bit flipped at every 97th byte, files cut short, times garbled, files
 * of a manifest deleted, an unknown format version. What a user observes: no line that differs from what was
 * recorded is ever delivered as valid; the damage is a typed error naming the file and the first line not delivered;
 * a recording that cannot be read at all is a typed rejection.
 */

const SYMBOL = 'BTCUSDT';
const CHECK = /^\{"t":[^,]+,"k":"check",/;

/** The text of a recording file (a cut one too). */
const textOf = (bytes: Buffer): string => gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');

/** The physical line (1-based) of each recorded event of a file's text (check lines are no event), and one past the last line. */
function eventLines(text: string): { readonly lineOf: number[]; readonly end: number } {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const lineOf: number[] = [];
  lines.forEach((l, i) => {
    if (!CHECK.test(l)) lineOf.push(i + 1);
  });
  lineOf.push(lines.length + 1);
  return { lineOf, end: lines.length + 1 };
}

const asCorrupt = (c: CorruptLine): RecordingCorruptError => c.error as RecordingCorruptError;
const rejection = async (p: Promise<unknown>): Promise<RecordingUnreadableError> => (await p.then(() => new Error('resolved'), (e: unknown) => e)) as RecordingUnreadableError;

describe('a damaged recording (files written by the recorder)', () => {
  let sim: Simulator;
  /** The pristine recording: never written to by the tests. */
  let source: string;
  let work: string;
  let names: string[];
  /** The largest file of the recording. */
  let big: string;

  beforeAll(async () => {
    sim = await startSimulator({ symbols: [SYMBOL], seed: 11, periodsMs: { depth: 100, trade: 50, kline: 100 }, marketStepMs: 50 });
    source = mkdtempSync(join(tmpdir(), 'exs-damage-src-'));
    // blocks every 200 ms (a flush), a new file every 600 ms: several files, several blocks each
    const rec = recordMarket({ url: sim.publicStreamUrl, symbols: [SYMBOL], topics: ['trade', 'depth', 'kline_1m'], out: source, flushIntervalMs: 200, maxFileMs: 600 });
    await firstValueFrom(rec.market.depth(SYMBOL).pipe(take(20), toArray(), timeout(10_000)));
    await rec.stop();
    await sim.close();
    names = readdirSync(source).filter((n) => n.endsWith('.jsonl.gz')).sort();
    big = [...names].sort((a, b) => statSync(join(source, b)).size - statSync(join(source, a)).size)[0]!;
  }, 20_000);
  afterAll(() => rmSync(source, { recursive: true, force: true }));
  beforeEach(() => (work = mkdtempSync(join(tmpdir(), 'exs-damage-'))));
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('is a recording of several files, each of several checked blocks, read back whole', async () => {
    expect(names.length).toBeGreaterThanOrEqual(3);
    const text = textOf(readFileSync(join(source, big)));
    expect(text.split('\n').filter((l) => CHECK.test(l)).length).toBeGreaterThanOrEqual(2);
    expect(text.startsWith('{"t":')).toBe(true);
    expect(text.split('\n')[0]).toMatch(/"k":"start","v":3,/);
    const recording = await loadRecording(source);
    expect(recording.corrupt).toEqual([]);
    expect(recording.events.filter((e) => e.k === 'f').length).toBe(recording.manifest!.files.reduce((n, f) => n + f.messages, 0));
  });

  it('a bit flipped at every 97th byte of a file: every line delivered is the line recorded; the damage is one RecordingCorruptError naming the file and the first line not delivered (eager and lazy alike)', async () => {
    const bytes = readFileSync(join(source, big));
    const original = await loadRecording(join(source, big));
    const { lineOf, end } = eventLines(textOf(bytes));
    let flips = 0;
    let detected = 0;
    /** Flips after which a line that differs from the recorded one was delivered, or the damage was not named right. */
    const altered: number[] = [];
    const misnamed: number[] = [];
    for (let at = 0; at < bytes.length; at += 97) {
      flips++;
      const damaged = Buffer.from(bytes);
      damaged[at] = damaged[at]! ^ (1 << (at % 8));
      writeFileSync(join(work, big), damaged);
      const got = await loadRecording(join(work, big));
      const n = got.events.length;
      // nothing altered, nothing invented: what is delivered is the recording's first n lines
      if (JSON.stringify(got.events) !== JSON.stringify(original.events.slice(0, n))) altered.push(at);
      const named = got.corrupt.map((c) => [c.file, c.line, c.error.name, asCorrupt(c).file, asCorrupt(c).line, c.afterTime, c.error.message.split(': ')[0]]);
      if (n < original.events.length) {
        detected++;
        // one error, naming the file and the first line not delivered, dated at the last line delivered
        const expected = [[big, lineOf[n], 'RecordingCorruptError', big, lineOf[n], n === 0 ? 0 : original.events[n - 1]!.t, `${big} line ${lineOf[n]}`]];
        if (JSON.stringify(named) !== JSON.stringify(expected)) misnamed.push(at);
      } else if (!got.corrupt.every((c) => c.error.name === 'RecordingCorruptError' && c.line === end)) {
        // undamaged text (a flip in the gzip header's time or OS byte), or a damaged trailer after every verified line
        misnamed.push(at);
      }
      // read lazily: the same lines, the damage in the same place
      const lazy = [...(await loadRecording(join(work, big), { lazy: true })).lines];
      const where = (l: (typeof lazy)[number]): unknown => ('error' in l ? [l.file, l.line, l.error.name] : l);
      if (JSON.stringify(lazy.map(where)) !== JSON.stringify([...got.events, ...got.corrupt].map(where))) misnamed.push(at);
    }
    expect({ flips, altered, misnamed }).toEqual({ flips, altered: [], misnamed: [] });
    expect(flips).toBeGreaterThan(50);
    expect(detected).toBeGreaterThan(flips * 0.9);
  }, 120_000);

  it('the replay of a damaged recording plays the lines before the damage and puts the RecordingCorruptError on errors$ at the time of the last line delivered, nothing after it', async () => {
    for (const name of names) copyFileSync(join(source, name), join(work, name));
    copyFileSync(join(source, 'manifest.json'), join(work, 'manifest.json'));
    const bytes = readFileSync(join(work, big));
    bytes[Math.floor(bytes.length / 2)] ^= 0x10;
    writeFileSync(join(work, big), bytes);
    const original = await loadRecording(source);
    const damaged = await loadRecording(work);
    expect(damaged.corrupt.map((c) => [c.file, c.error.name])).toEqual([[big, 'RecordingCorruptError']]);
    const tradesOf = (recording: typeof original): string[] => {
      const ids: string[] = [];
      const testScheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
      testScheduler.run(() => {
        replayMarket(recording, { scheduler: testScheduler }).trades(SYMBOL).subscribe((t) => ids.push(`${t.v} ${t.p} ${t.q}`));
      });
      return ids;
    };
    const all = tradesOf(original);
    const some = tradesOf(damaged);
    expect(some.length).toBeLessThan(all.length);
    expect(some.every((t) => all.includes(t))).toBe(true); // no trade that was not recorded, no altered price or quantity

    const testScheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    const seen: Array<[number, string]> = [];
    let at = 0;
    testScheduler.run(() => {
      const replay = replayMarket(damaged, { scheduler: testScheduler });
      replay.errors$.pipe(filter((e) => e.name === 'RecordingCorruptError')).subscribe((e) => seen.push([testScheduler.now(), e.message]));
      at = replay.timeOf(damaged.corrupt[0]!.afterTime);
    });
    expect(seen).toEqual([[at, damaged.corrupt[0]!.error.message]]);
  });

  it('a file cut short anywhere: the lines of its whole blocks are delivered, the rest is one RecordingCorruptError at its first line', async () => {
    const bytes = readFileSync(join(source, big));
    const original = await loadRecording(join(source, big));
    const { lineOf } = eventLines(textOf(bytes));
    const step = Math.max(1, Math.floor(bytes.length / 40));
    for (let length = 12; length < bytes.length - 8; length += step) {
      writeFileSync(join(work, big), bytes.subarray(0, length));
      const got = await loadRecording(join(work, big));
      const n = got.events.length;
      expect({ length, events: got.events }).toEqual({ length, events: original.events.slice(0, n) });
      if (n === original.events.length) {
        // Cut after the last line's block (in the gzip's end): every line is there and verified; the missing end is said.
        expect({ length, corrupt: got.corrupt.map((c) => [c.file, c.error.name, asCorrupt(c).damage]) }).toEqual({ length, corrupt: [[big, 'RecordingCorruptError', 'unverified']] });
        continue;
      }
      expect({ length, corrupt: got.corrupt.map((c) => [c.file, c.line, c.error.name]) }).toEqual({ length, corrupt: [[big, lineOf[n], 'RecordingCorruptError']] });
    }
  });

  it('files of format 2 (gzip whole) are still read; a flipped bit at every 97th byte gives the whole file as recorded, none of it (a RecordingCorruptError at line 1), or what a crash cut gives: the lines before it as recorded', async () => {
    const original = await loadRecording(join(source, big));
    const legacyText = textOf(readFileSync(join(source, big)))
      .split('\n')
      .filter((l) => !CHECK.test(l))
      .map((l, i) => (i === 0 ? l.replace('"v":3', '"v":2') : l))
      .join('\n');
    const legacy = gzipSync(legacyText);
    const expected = original.events.map((e) => (e.k === 'start' ? { ...e, v: 2 } : e));
    writeFileSync(join(work, big), legacy);
    expect((await loadRecording(join(work, big))).events).toEqual(expected);
    let detected = 0;
    for (let at = 0; at < legacy.length; at += 97) {
      const damaged = Buffer.from(legacy);
      damaged[at] = damaged[at]! ^ (1 << (at % 8));
      writeFileSync(join(work, big), damaged);
      const got = await loadRecording(join(work, big));
      if (got.events.length === 0) {
        detected++;
        expect({ at, corrupt: got.corrupt.map((c) => [c.file, c.line, c.error.name, asCorrupt(c).damage]) }).toEqual({ at, corrupt: [[big, 1, 'RecordingCorruptError', 'compressed']] });
      } else if (got.corrupt.length === 0) {
        expect({ at, events: got.events }).toEqual({ at, events: expected });
      } else {
        // A flip that leaves zlib waiting for more input reads as a file cut by a crash (format 1 and 2 cannot tell
        // the two apart: no checksum before the trailer): the lines before it, exactly as recorded, then one line
        // said cut short (the flip may first have made the text zlib gave out of one line no longer JSON: that line is
        // refused, never delivered). Never an altered line.
        expect({ at, events: got.events }).toEqual({ at, events: expected.slice(0, got.events.length) });
        const messages = got.corrupt.map((c) => c.error.message);
        expect({ at, last: messages[messages.length - 1] }).toEqual({ at, last: expect.stringMatching(/cut short/) });
        for (const m of messages.slice(0, -1)) expect({ at, m }).toEqual({ at, m: expect.stringMatching(/is not JSON/) });
      }
    }
    expect(detected).toBeGreaterThan(0);
  }, 60_000);

  it('garbled times (1 000 days and 4.49 million hours ahead, 25 days ahead, 1 000 days back, 0) are refused one by one, with or without the manifest; a virtual replay then ends at the recording\'s end', async () => {
    const original = (await loadRecording(join(source, big))).events;
    const garbled = new Map<number, (t: number) => number>([
      [3, (t) => t + 1000 * 86_400_000],
      [6, (t) => t + 4.49e6 * 3_600_000],
      [9, (t) => t + 25 * 86_400_000],
      [12, (t) => t - 1000 * 86_400_000],
      [15, () => 0],
    ]);
    // the recorder's own writer (checksums and manifest), fed the recorded lines with some times garbled
    const files = new RecordingFiles({ dir: work, prefix: 'market', stream: 'public', symbols: [SYMBOL], topics: ['trade', 'depth', 'kline_1m'], maxFileBytes: 1e9, maxFileMs: Infinity, onError: (e) => { throw e; } });
    const lines = original.filter((e) => e.k !== 'start');
    lines.forEach((e, i) => files.write({ ...e, t: garbled.get(i)?.(e.t) ?? e.t } as RecordedEvent));
    await files.close();
    const [name] = readdirSync(work).filter((n) => n.endsWith('.jsonl.gz'));
    const { lineOf } = eventLines(textOf(readFileSync(join(work, name!))));
    const expectedLines = [...garbled.keys()].map((i) => lineOf[i + 1]); // after the file's start line

    for (const withManifest of [true, false]) {
      if (!withManifest) rmSync(join(work, 'manifest.json'));
      const recording = await loadRecording(work);
      expect({ withManifest, corrupt: recording.corrupt.map((c) => [c.file, c.line, c.error.name, asCorrupt(c).damage]) }).toEqual({
        withManifest,
        corrupt: expectedLines.map((l) => [name, l, 'RecordingCorruptError', 'time']),
      });
      expect(recording.events.slice(1)).toEqual(lines.filter((_, i) => !garbled.has(i)));

      const lazy = await loadRecording(work, { lazy: true });
      const scheduler = new VirtualTimeScheduler(undefined, Infinity);
      const start = scheduler.now();
      const replay = replayMarket(lazy, { scheduler });
      let ended = false;
      const errors: string[] = [];
      replay.ended$.subscribe(() => (ended = true));
      replay.errors$.pipe(filter((e) => e.name === 'RecordingCorruptError')).subscribe((e) => errors.push(e.message));
      replay.trades(SYMBOL).subscribe();
      scheduler.flush();
      expect(ended).toBe(true);
      expect(errors).toHaveLength(garbled.size);
      expect(scheduler.now() - start).toBeLessThanOrEqual(lines[lines.length - 1]!.t - original[0]!.t + 60_000);
    }
  });

  it('a manifest naming files that are missing, an empty directory, an unknown format version: a typed rejection naming what is wrong', async () => {
    for (const name of names) copyFileSync(join(source, name), join(work, name));
    copyFileSync(join(source, 'manifest.json'), join(work, 'manifest.json'));
    const gone = [names[0]!, names[names.length - 1]!];
    for (const name of gone) rmSync(join(work, name));
    const missing = await rejection(loadRecording(work));
    expect([missing.name, missing.reason, missing.files]).toEqual(['RecordingUnreadableError', 'missing-files', gone]);
    expect(missing.message).toContain(`2 of the ${names.length} files its manifest.json names are missing: ${gone.join(', ')}`);
    await expect(loadRecording(work, { lazy: true })).rejects.toThrow(/files its manifest.json names are missing/);

    const empty = join(work, 'empty');
    mkdirSync(empty);
    const none = await rejection(loadRecording(empty));
    expect([none.name, none.reason]).toEqual(['RecordingUnreadableError', 'empty']);
    expect(none.message).toBe(`${empty}: no recording file (*.jsonl.gz) in the directory`);

    // a file of format 9, its checksums right (a recorder of a later version), and one of format 9 without them
    const text = textOf(readFileSync(join(source, big))).split('\n');
    const firstCheck = text.findIndex((l) => CHECK.test(l));
    const block = text.slice(0, firstCheck).map((l, i) => (i === 0 ? l.replace('"v":3', '"v":9') : l));
    const blockText = `${block.join('\n')}\n`;
    const future = `${blockText}{"t":1,"k":"check","lines":${block.length},"crc":${crc32(Buffer.from(blockText))}}\n`;
    for (const content of [future, blockText]) {
      const dir = mkdtempSync(join(work, 'v9-'));
      writeFileSync(join(dir, 'market-20261125T210922Z-0001.jsonl.gz'), gzipSync(content));
      const unknown = await rejection(loadRecording(dir));
      expect([unknown.name, unknown.reason, unknown.files]).toEqual(['RecordingUnreadableError', 'unknown-version', ['market-20261125T210922Z-0001.jsonl.gz']]);
      expect(unknown.message).toMatch(/format version 9 is not one this version of ex-streams reads \(1, 2, 3\)/);
    }
    const manifest = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8')) as RecordingManifest;
    const dir = mkdtempSync(join(work, 'm2-'));
    for (const f of manifest.files) copyFileSync(join(source, f.name), join(dir, f.name));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, version: 2 }));
    expect((await rejection(loadRecording(dir))).reason).toBe('unknown-version');
  });
});
