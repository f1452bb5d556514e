/**
 * `npm start`: a live terminal view of ex-streams against the embedded simulator (or a real deployment).
 * See `--help`. This file does the process I/O: arguments, output, Ctrl-C, teardown.
 */
import {
  asyncScheduler,
  filter,
  firstValueFrom,
  fromEvent,
  ignoreElements,
  interval,
  map,
  merge,
  NEVER,
  race,
  scan,
  share,
  shareReplay,
  Subject,
  take,
  takeUntil,
  tap,
  timer,
} from 'rxjs';
import { parseArgs, USAGE, type DemoOptions } from './args';
import { initialState, type DemoEvent, type Stamped } from './model';
import { newLogLines, plainLine, plainSnapshot, plainSummary } from './plain';
import { reduce } from './reduce';
import { demoSession } from './session';
import { openEndpoints } from './target';
import { renderScreen } from './view';

/** Plain mode prints a snapshot this often. */
const PLAIN_SNAPSHOT_MS = 2_000;
/** The terminal is redrawn this often. */
const REDRAW_MS = 200;
/** After the streams closed, wait this long at most for the listen key's DELETE to be answered. */
const KEY_CLOSE_GRACE_MS = 1_000;

const ANSI = { home: '\x1b[H', clearLine: '\x1b[K', clearBelow: '\x1b[J', clearAll: '\x1b[2J', hideCursor: '\x1b[?25l', showCursor: '\x1b[?25h' };

const write = (text: string): void => void process.stdout.write(text);

async function run(options: DemoOptions): Promise<number> {
  const tty = process.stdout.isTTY === true && !options.plain;
  const endpoints = await openEndpoints(options.target, options.symbols);
  const startedAt = asyncScheduler.now();
  const notes = new Subject<DemoEvent>();
  // Remembers the listen key's DELETE answer, which arrives after the streams are closed.
  const keyClosed$ = notes.pipe(
    filter((e) => e.type === 'listenKey' && e.action === 'closed'),
    take(1),
    map(() => true),
    shareReplay(1),
  );
  keyClosed$.subscribe();

  const signal$ = merge(fromEvent(process, 'SIGINT').pipe(map(() => 'Ctrl-C')), fromEvent(process, 'SIGTERM').pipe(map(() => 'SIGTERM')));
  const end$ = race(options.durationMs === undefined ? NEVER : timer(options.durationMs).pipe(map(() => 'time is up')), signal$).pipe(
    take(1),
    share(),
  );
  let endReason = 'the streams completed';
  const endWatch = end$.subscribe((reason) => (endReason = reason));

  let state = initialState(options.symbols, startedAt, endpoints.privateSide !== undefined);
  let printedSeq = 0;
  const printNewLog = (): void => {
    for (const line of newLogLines(state, printedSeq)) write(`${plainLine(line.at, line.text)}\n`);
    printedSeq = state.logSeq;
  };
  const draw = (): void => {
    const lines = renderScreen(state, {
      label: endpoints.label,
      width: process.stdout.columns || 120,
      height: process.stdout.rows || 50,
      color: true,
      ...(options.durationMs !== undefined && { leftMs: startedAt + options.durationMs - state.now }),
    });
    write(`${ANSI.home}${lines.map((l) => `${l}${ANSI.clearLine}`).join('\n')}\n${ANSI.clearBelow}`);
  };

  const session = demoSession(endpoints, options, notes);
  const states$ = session.events$.pipe(
    map((event): Stamped => ({ at: asyncScheduler.now(), event })),
    scan(reduce, state),
    tap((next) => (state = next)),
    takeUntil(end$),
    share(),
  );
  const output$ = tty
    ? merge(states$.pipe(ignoreElements()), interval(REDRAW_MS).pipe(tap(draw))).pipe(takeUntil(end$))
    : merge(states$.pipe(tap(printNewLog)), interval(PLAIN_SNAPSHOT_MS).pipe(tap(() => plainSnapshot(state).forEach((l) => write(`${l}\n`))))).pipe(
        takeUntil(end$),
      );

  const finish = (text: string): void => write(`${plainLine(asyncScheduler.now(), text)}\n`);
  if (tty) write(`${ANSI.hideCursor}${ANSI.clearAll}`);
  try {
    await new Promise<void>((resolve, reject) => output$.subscribe({ error: reject, complete: resolve }));
    // Every subscription is closed now: sockets closed with 1000, the listen key's DELETE sent.
    if (tty) draw();
    else printNewLog();
    finish(`stopping (${endReason}): every stream unsubscribed`);
    if (endpoints.privateSide !== undefined) {
      const closed = await firstValueFrom(race(keyClosed$, timer(KEY_CLOSE_GRACE_MS).pipe(map(() => false))));
      finish(closed ? `listen key ${state.listenKey?.redacted ?? ''} closed (DELETE)` : 'listen key DELETE not answered in time');
    }
    await new Promise<void>((resolve) =>
      session.cleanup$.subscribe({ next: (e) => e.type === 'note' && finish(e.text), error: () => resolve(), complete: resolve }),
    );
    for (const line of plainSummary({ ...state, now: asyncScheduler.now() })) write(`${line}\n`);
  } finally {
    if (tty) write(ANSI.showCursor);
    endWatch.unsubscribe();
    notes.complete();
    await endpoints.close();
  }
  finish(endpoints.simulator ? 'simulator closed; bye' : 'bye');
  return 0;
}

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2), process.env);
  switch (parsed.kind) {
    case 'help':
      write(USAGE);
      return;
    case 'error':
      process.stderr.write(`demo: ${parsed.message}\n`);
      process.exitCode = 2;
      return;
    case 'run':
      process.exitCode = await run(parsed.options);
      return;
    default: {
      const never: never = parsed;
      return never;
    }
  }
}

main()
  .catch((error: unknown) => {
    write(ANSI.showCursor);
    process.stderr.write(`demo failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    // Last resort only: everything was closed above, so the process should end by itself. If some handle
    // still holds the event loop, say so and exit instead of hanging a CI job. unref(): this timer itself
    // never keeps the process alive.
    setTimeout(() => {
      process.stderr.write('demo: still running 5 s after cleanup (an open handle); exiting\n');
      process.exit(process.exitCode ?? 1);
    }, 5_000).unref();
  });
