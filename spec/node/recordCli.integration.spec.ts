import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadRecording, type RecordingManifest, runRecordCli } from '../../lib/node';
import { startSimulator, type Simulator } from '../../lib/simulator';

/**
 * Integration: the recorder against the simulator (127.0.0.1, ephemeral port): `ex-streams record` stopped by
 * --duration (in process) and, as a child process, by SIGTERM (a clean stop: manifest complete); a recorder in a child
 * process killed with SIGKILL, whose
 * recording is readable up to its last flush (at most about a second lost).
 */
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'ex-streams.js');

interface Run {
  readonly child: ChildProcess;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the first stdout line that `match` accepts. */
  line(match: (line: string) => boolean): Promise<string>;
}

function run(args: readonly string[]): Run {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const waiting: Array<{ match: (l: string) => boolean; resolve: (l: string) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (l) => {
    out += `${l}\n`;
    for (const w of waiting.splice(0)) (w.match(l) ? w.resolve(l) : waiting.push(w));
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    exit,
    stdout: () => out,
    stderr: () => err,
    line: (match) => new Promise((resolve, reject) => {
      waiting.push({ match, resolve });
      void exit.then(() => reject(new Error(`child exited before the line; stdout: ${out}; stderr: ${err}`)));
    }),
  };
}

const manifestOf = (dir: string): RecordingManifest => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RecordingManifest;

/** Resolves when the recorder has renamed a manifest into `dir` that `accept`s (fs.watch: an event, no polling). */
function manifestWhere(dir: string, accept: (m: RecordingManifest) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, (_event, name) => {
      if (name !== 'manifest.json') return;
      try {
        if (!accept(manifestOf(dir))) return;
      } catch {
        return; // between the recorder's write and rename
      }
      watcher.close();
      resolve();
    });
  });
}

describe('ex-streams record (child processes, simulator)', () => {
  let sim: Simulator;
  let dir: string;
  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 5, periodsMs: { depth: 100, trade: 100, kline: 100 }, marketStepMs: 50 });
    dir = mkdtempSync(join(tmpdir(), 'exs-cli-'));
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--duration: records that long, a progress line in place on a terminal, the summary, the manifest complete; a bad option is exit code 2 (in process)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const host = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), isTTY: false };
    expect(await runRecordCli({ ...host, argv: ['--symbols', 'BTCUSDT', '--out', dir, '--duration', 'soon'] })).toBe(2);
    expect(err.join('')).toContain("--duration must be a duration from 1ms to 366d, such as 30s, 5m, 1h, got 'soon'");

    const rec = await runRecordCli({ ...host, isTTY: true, argv: ['--symbols', 'BTCUSDT', '--topics', 'trade,depth', '--url', sim.publicStreamUrl, '--out', dir, '--duration', '1200ms'] });
    if (typeof rec === 'number') throw new Error(`exit code ${rec}`);
    await rec.finished;
    // on a terminal: one progress line rewritten in place (at the start, at each flush), then the summary
    const lines = out.join('').split('\r\x1b[2K').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toBe('ex-streams record: 0 messages, 0 B, 0 files');
    expect(lines.slice(1, -1).every((l) => /^ex-streams record: \d+ messages, [\d.]+ (B|KiB), 1 file$/.test(l))).toBe(true);
    expect(lines[lines.length - 1]).toMatch(/^ex-streams record: \d+ messages, [\d.]+ KiB, 1 file in .* \(manifest.json complete\)\n$/);
    const manifest = manifestOf(dir);
    expect(manifest.complete).toBe(true);
    expect(manifest.files[0]?.topics).toEqual(['trade', 'depth']);
    expect(manifest.files[0]?.messages).toBeGreaterThan(5);
    const recording = await loadRecording(dir);
    expect(recording.corrupt).toEqual([]);
    expect(recording.events.filter((e) => e.k === 'f')).toHaveLength(manifest.files[0]!.messages);
  });

  it('bin/ex-streams.js record stops cleanly on SIGTERM: summary printed, exit 0, manifest complete', async () => {
    const rec = run([BIN, 'record', '--symbols', 'BTCUSDT', '--url', sim.publicStreamUrl, '--out', dir]);
    await manifestWhere(dir, (m) => (m.files[0]?.messages ?? 0) > 0); // the recorder runs and has flushed frames
    rec.child.kill('SIGTERM');
    expect(await rec.exit).toEqual({ code: 0, signal: null });
    expect(rec.stdout()).toMatch(/manifest.json complete/);
    expect(manifestOf(dir).complete).toBe(true);
    expect((await loadRecording(dir)).corrupt).toEqual([]);
  });

  it('a recorder killed with SIGKILL leaves a recording readable up to its last flush', async () => {
    const child = run([process.execPath, '-r', 'ts-node/register/transpile-only', join(__dirname, 'fixtures', 'recordChild.ts'), sim.publicStreamUrl, dir].slice(1));
    // two flushes with data on disk, then the kill
    let flushes = 0;
    const line = await child.line((l) => JSON.parse(l).messages > 0 && ++flushes >= 2);
    const flushed = JSON.parse(line) as { messages: number; at: number };
    child.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await child.exit).toEqual({ code: null, signal: 'SIGKILL' });

    const manifest = manifestOf(dir);
    expect(manifest.complete).toBe(false);
    expect(manifest.files.map((f) => f.complete)).toEqual([false]);
    const recording = await loadRecording(dir);
    // at most the cut last line is unreadable; everything flushed is there, and at most about a second is lost
    expect(recording.corrupt.length).toBeLessThanOrEqual(1);
    const frames = recording.events.filter((e) => e.k === 'f');
    expect(frames.length).toBeGreaterThanOrEqual(flushed.messages);
    expect(killedAt - recording.events[recording.events.length - 1]!.t).toBeLessThan(1500);
  });
});

describe('ex-streams record: what it is given', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'exs-cli-args-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const host = (out: string[], err: string[]) => ({ stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), isTTY: false });

  it('--out that is a file (or under a file): exit 1 and one clear line, nothing written (in process and through bin/ex-streams.js)', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'a file');
    for (const out of [file, join(file, 'rec')]) {
      const stdout: string[] = [];
      const stderr: string[] = [];
      expect(await runRecordCli({ ...host(stdout, stderr), argv: ['--symbols', 'BTCUSDT', '--out', out, '--duration', '1s'] })).toBe(1);
      expect(stderr.join('')).toBe(out === file ? `ex-streams record: --out must be a directory, but '${file}' is a file\n` : `ex-streams record: --out must be a directory, but a part of '${out}' is a file\n`);
      expect(stdout).toEqual([]);
    }
    expect(readFileSync(file, 'utf8')).toBe('a file');
    const child = run([BIN, 'record', '--symbols', 'BTCUSDT', '--out', file]);
    expect(await child.exit).toEqual({ code: 1, signal: null });
    expect(child.stderr()).toBe(`ex-streams record: --out must be a directory, but '${file}' is a file\n`);
  });

  it('--duration longer than a Node timer (25d) records on instead of stopping at once; beyond a year it is refused (exit 2)', async () => {
    const err: string[] = [];
    expect(await runRecordCli({ ...host([], err), argv: ['--symbols', 'BTCUSDT', '--out', dir, '--duration', '400d'] })).toBe(2);
    expect(err.join('')).toContain("ex-streams record: --duration must be a duration from 1ms to 366d, such as 30s, 5m, 1h, got '400d'");
    const sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 5, periodsMs: { depth: 100, trade: 100, kline: 100 }, marketStepMs: 50 });
    try {
      const out: string[] = [];
      const rec = await runRecordCli({ ...host(out, []), argv: ['--symbols', 'BTCUSDT', '--url', sim.publicStreamUrl, '--out', dir, '--duration', '25d'] });
      if (typeof rec === 'number') throw new Error(`exit code ${rec}`);
      let finished = false;
      void rec.finished.then(() => (finished = true));
      await manifestWhere(dir, (m) => (m.files[0]?.messages ?? 0) > 0); // recording, a second or more after the start
      expect(finished).toBe(false);
      await rec.stop();
      expect(finished).toBe(true);
      expect(out.join('')).toMatch(/^ex-streams record: [1-9]\d* messages, .* \(manifest.json complete\)\n$/);
    } finally {
      await sim.close();
    }
  });
});
