import * as E from 'fp-ts/Either';
import { PrivateEventCodec } from '../../lib/codecs/privateEvents';
import { ConnectionClosedError, DecodeError, HeartbeatTimeoutError, RequestFailedError, RequestRejectedError } from '../../lib/errors';
import { parseJson } from '../../lib/frame/json';
import type { RestClient } from '../../lib/rest/types';
import type { InjectedFault, SentReport } from '../../lib/simulator';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import { privateEventKey } from '../../lib/user/privateEventKey';
import type { Observations } from './consumer';
import { type Books, simulatorBooks, stateBooks } from '../helpers/books';

/** One end-of-soak check. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** Numbers of the summary table. */
export interface SoakNumbers {
  privatePushes: number;
  privateEventsSent: number;
  /** Distinct events written to at least one open session. */
  privateEventsWritten: number;
  privateDelivered: number;
  privateDeduplicated: number;
  privateLate: number;
  privateLostInFaults: number;
  /** Private events written and never delivered, each inside a signalled user gap (checked). */
  privateLostInGaps: number;
  /** Trades written and never delivered (below the last delivered id), each inside a signalled market gap (checked). */
  tradesLostInGaps: number;
  /** Largest lead (ms) of a lost event's write time before its gap's downSince (inside GAP_SLACK_MS). */
  maxLeadBeforeDownSinceMs: number;
  marketReconnects: number;
  userReconnects: number;
  tradeGaps: number;
  userGaps: number;
  keyChanges: number;
  decodeErrors: number;
  tradesDelivered: number;
  /** Snapshots merged into `orders$` / `balances$` (distinct `syncedEpoch`s seen). */
  resyncs: number;
  /** Orders and assets compared with the simulator's books at the end (see {@link resyncCheck}). */
  resyncOrdersCompared: number;
  resyncBalancesCompared: number;
  /** Reads of both sides until they agreed (1 when the first one did). */
  resyncReads: number;
}

export interface CheckInput {
  readonly seen: Observations;
  readonly sent: SentReport;
  readonly faults: readonly InjectedFault[];
  readonly topics: readonly string[];
  readonly unhandled: readonly unknown[];
  readonly unexpectedOrderErrors: readonly Error[];
  readonly heartbeatTimeoutMs: number;
}

const check = (name: string, problems: readonly string[], okDetail: string): Check => ({
  name,
  ok: problems.length === 0,
  detail: problems.length === 0 ? okDetail : `${problems.length} problem(s): ${problems.slice(0, 5).join('; ')}`,
});

/** The status in force at time `t` (the last one logged at or before it). */
const statusAt = <S>(log: ReadonlyArray<{ readonly at: number; readonly status: S }>, t: number): S | undefined => {
  let found: S | undefined;
  for (const e of log) if (e.at <= t) found = e.status;
  return found;
};

const hits = (f: InjectedFault, stream: 'public' | 'private'): boolean => f.stream === stream || f.stream === 'all';

/**
 * How far before a gap's `downSince` a lost event may have been written. `downSince` is the time the client
 * received the last frame of the lost connection; a frame the simulator wrote a moment before that arrival
 * (same process: one event-loop turn) and lost is still "after the last frame" for the service, so a
 * reconciliation from `downSince` would miss it by at most this much.
 */
export const GAP_SLACK_MS = 25;

/** How long after a fault its cut may show (a close frame travels; the fault is recorded before it is sent). */
const CUT_LATENCY_MS = 500;

/**
 * The signalled gaps as windows `[downSince, reconnectedAt]`, and a test that puts a write time inside one
 * (or at most {@link GAP_SLACK_MS} before one's start, recording the lead).
 */
const gapWindows = (windows: ReadonlyArray<readonly [number, number]>, numbers: SoakNumbers) => (at: number): boolean => {
  const inside = windows.find(([from, to]) => at >= from - GAP_SLACK_MS && at <= to);
  if (inside === undefined) return false;
  numbers.maxLeadBeforeDownSinceMs = Math.max(numbers.maxLeadBeforeDownSinceMs, inside[0] - at);
  return true;
};

/**
 * The opens of a `status$` log (market or user: one shape), each with its `downSince`, deduplicated by epoch (a
 * status emitted for counters alone repeats the connection).
 */
const opensOf = (log: ReadonlyArray<{ readonly status: { readonly connection: ConnectionStatus } }>): Array<Extract<ConnectionStatus, { type: 'open' }>> => {
  const opens = log.map((s) => s.status.connection).filter((c): c is Extract<ConnectionStatus, { type: 'open' }> => c.type === 'open');
  return [...new Map(opens.map((o) => [o.epoch, o])).values()];
};

/** Private events: exactly once, nothing invented, losses only inside fault windows, E order or flagged late. */
function privateChecks(input: CheckInput, numbers: SoakNumbers): Check[] {
  const { seen, sent, faults, heartbeatTimeoutMs } = input;
  const sentKeys = new Map<string, { at: number; delivered: boolean; writtenAt: number[] }>();
  const undecodable: string[] = [];
  for (const r of sent.privateLog) {
    const json = parseJson(r.text);
    const event = E.isRight(json) ? PrivateEventCodec.decode(json.right) : undefined;
    if (event === undefined || E.isLeft(event)) {
      undecodable.push(r.text.slice(0, 80));
      continue;
    }
    const key = privateEventKey(event.right);
    const prior = sentKeys.get(key);
    const writtenAt = prior?.writtenAt ?? [];
    if (r.sessions > 0) writtenAt.push(r.at);
    sentKeys.set(key, { at: Math.min(prior?.at ?? r.at, r.at), delivered: (prior?.delivered ?? false) || r.sessions > 0, writtenAt });
  }
  numbers.privatePushes = sent.privateLog.length;
  numbers.privateEventsSent = new Set(sent.privateLog.map((r) => r.seq)).size;
  const deliveredKeys = new Map<string, number>();
  for (const { event } of seen.events) {
    const key = privateEventKey(event);
    deliveredKeys.set(key, (deliveredKeys.get(key) ?? 0) + 1);
  }
  numbers.privateDelivered = seen.events.length;
  numbers.privateEventsWritten = [...sentKeys.values()].filter((s) => s.delivered).length;
  numbers.privateDeduplicated = Math.max(0, sent.privateLog.reduce((n, r) => n + r.sessions, 0) - seen.events.length);
  const twice = [...deliveredKeys].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
  const invented = [...deliveredKeys.keys()].filter((k) => !sentKeys.has(k));
  const windows = faults
    .filter((f) => hits(f, 'private') && ['drop', 'close', 'stall', 'halfOpen', 'listenKeyExpiry'].includes(f.kind))
    .map((f) => [f.at - 100, f.endsAt + (f.kind === 'stall' ? heartbeatTimeoutMs + 1000 : 100)] as const);
  const lost = [...sentKeys].filter(([k, s]) => s.delivered && !deliveredKeys.has(k));
  const unexplained = lost.filter(([, s]) => !windows.some(([from, to]) => s.at >= from && s.at <= to));
  numbers.privateLostInFaults = lost.length - unexplained.length;
  const inUserGap = gapWindows(seen.userGaps.map(({ gap }) => [gap.downSince, gap.reconnectedAt] as const), numbers);
  const outsideGaps = lost.flatMap(([k, s]) => s.writtenAt.filter((at) => !inUserGap(at)).map((at) => `${k} written at ${at}`));
  numbers.privateLostInGaps = lost.length;
  if (outsideGaps.length > 0) {
    const gaps = seen.userGaps.map(({ gap }) => `[${gap.downSince}, ${gap.reconnectedAt}]`).join(' ');
    outsideGaps.push(`user gaps: ${gaps.slice(0, 400)}`);
  }

  let maxE = -Infinity;
  const disorder: string[] = [];
  for (const { event } of seen.events) {
    // (An event of a type the library does not model may have no time: it is not ordered.)
    if (event.E === undefined) continue;
    if (event.E < maxE && !seen.late.has(event)) disorder.push(`${privateEventKey(event)} E=${event.E} after ${maxE}`);
    maxE = Math.max(maxE, event.E);
  }
  numbers.privateLate = seen.late.size;
  return [
    check('private events decodable as sent', undecodable, `${sent.privateLog.length} pushes decoded`),
    check('private events delivered at most once', twice, `${seen.events.length} delivered, none twice`),
    check('no private event invented', invented, 'every delivered event was sent'),
    check('private events lost only in fault windows', unexplained.map(([k, s]) => `${k} at ${s.at}`), `${lost.length} lost, all while a fault cut the socket`),
    check(
      'private events lost only inside signalled gaps [downSince, reconnectedAt]',
      outsideGaps,
      `${lost.length} lost, each written inside a user gap (lead before downSince ≤ ${GAP_SLACK_MS} ms)`,
    ),
    check('private events in E order (or flagged late)', disorder, `${seen.late.size} flagged late`),
  ];
}

/** Trades: each id once, in id order, nothing invented, every hole covered by a signalled gap. */
function tradeChecks(input: CheckInput, numbers: SoakNumbers): Check[] {
  const { seen, sent } = input;
  const inMarketGap = gapWindows(
    opensOf(seen.marketStatus).flatMap((o) => (o.downSince === undefined ? [] : [[o.downSince, o.since] as const])),
    numbers,
  );
  const lostOutsideGaps: string[] = [];
  numbers.tradesLostInGaps = 0;
  const twice: string[] = [];
  const disorder: string[] = [];
  const invented: string[] = [];
  const uncovered: string[] = [];
  numbers.tradesDelivered = 0;
  for (const [symbol, ids] of seen.tradeIds) {
    numbers.tradesDelivered += ids.length;
    const delivered = new Set<string>();
    let last = -1n;
    for (const id of ids) {
      if (delivered.has(id)) twice.push(`${symbol} ${id}`);
      delivered.add(id);
      if (BigInt(id) <= last) disorder.push(`${symbol} ${id} after ${last}`);
      if (BigInt(id) > last) last = BigInt(id);
    }
    const sentIds = sent.trades[symbol]?.ids ?? [];
    const sentAt = sent.trades[symbol]?.at ?? [];
    for (const [i, id] of sentIds.entries()) {
      if (BigInt(id) > last || delivered.has(id)) continue; // above the last delivered: still in flight at the end
      if (inMarketGap(sentAt[i] ?? 0)) numbers.tradesLostInGaps += 1;
      else lostOutsideGaps.push(`${symbol} ${id} written at ${sentAt[i]}`);
    }
    const sentSet = new Set(sentIds);
    for (const id of delivered) if (!sentSet.has(id)) invented.push(`${symbol} ${id}`);
    const gaps = seen.tradeGaps.filter((g) => g.symbol === symbol).map((g) => [BigInt(g.lastSeenId), BigInt(g.firstNewId)] as const);
    for (const id of sentIds) {
      const n = BigInt(id);
      if (n > last || delivered.has(id)) continue; // above the last delivered: still in flight at the end
      if (!gaps.some(([from, to]) => n > from && n < to)) uncovered.push(`${symbol} ${id}`);
    }
  }
  numbers.tradeGaps = seen.tradeGaps.length;
  return [
    check('no trade id twice', twice, `${numbers.tradesDelivered} trades delivered`),
    check('trades in id order', disorder, 'strictly increasing per symbol'),
    check('no trade invented', invented, 'every delivered trade was sent'),
    check('every missed trade inside a signalled gap', uncovered, `${seen.tradeGaps.length} trade gap(s) signalled`),
    check(
      'trades lost only inside signalled gaps [downSince, since]',
      lostOutsideGaps,
      `${numbers.tradesLostInGaps} lost, each written inside a market gap`,
    ),
  ];
}

/** Every topic got data after the last fault; every cut of an open socket shows as a new epoch / gap. */
function recoveryChecks(input: CheckInput, numbers: SoakNumbers): Check[] {
  const { seen, faults, topics } = input;
  const lastFaultEnd = Math.max(0, ...faults.map((f) => f.endsAt));
  const lastOf = (t: string): number => Math.max(0, ...(seen.topicData.get(t) ?? []));
  const silent = topics
    .filter((t) => lastOf(t) <= lastFaultEnd)
    .map((t) => `${t} (last data ${lastOf(t) - lastFaultEnd} ms from the last fault end)`);
  if (silent.length > 0) {
    const lastFaults = faults.filter((f) => f.endsAt >= lastFaultEnd - 15_000).map((f) => `${f.kind}/${f.stream}@${f.at - lastFaultEnd}..${f.endsAt - lastFaultEnd}`);
    const lastStatus = seen.marketStatus.slice(-4).map((s) => `${s.status.connection.type}#${s.status.connection.epoch}@${s.at - lastFaultEnd}`);
    silent.push(`faults near the end: ${lastFaults.join(', ')}; market status: ${lastStatus.join(', ')}`);
  }
  const eventAfter = seen.events.some((e) => e.at > lastFaultEnd);
  const marketEpochs = opensOf(seen.marketStatus);
  const marketOpens = marketEpochs;
  const userOpens = opensOf(seen.userStatus);
  numbers.marketReconnects = Math.max(0, marketEpochs.length - 1);
  numbers.userReconnects = Math.max(0, userOpens.length - 1);
  numbers.userGaps = seen.userGaps.length;
  numbers.keyChanges = seen.userGaps.filter((g) => g.gap.keyChanged).length;
  const invisible: string[] = [];
  // A cut is shown by the gap that covers it: `downSince` (the last frame received) at or before the fault,
  // reconnection after it; a half-open socket must be detected (by the heartbeat) before the server drops it.
  const covers = (downSince: number, reconnectedAt: number, f: InjectedFault): boolean =>
    downSince <= f.at + CUT_LATENCY_MS && reconnectedAt > f.at && (f.kind !== 'halfOpen' || reconnectedAt < f.endsAt);
  for (const f of faults) {
    if (!['drop', 'close', 'halfOpen', 'listenKeyExpiry'].includes(f.kind) || f.detail === 'no active key' || f.detail.startsWith('0 socket')) continue;
    if (hits(f, 'public') && f.kind !== 'listenKeyExpiry' && statusAt(seen.marketStatus, f.at - 20)?.connection.type === 'open') {
      const shown = marketOpens.some((o) => o.downSince !== undefined && covers(o.downSince, o.since, f));
      if (!shown) {
        const near = marketOpens.filter((o) => o.downSince !== undefined && Math.abs(o.downSince - f.at) < 10_000).map((o) => `[${(o.downSince ?? 0) - f.at}, ${o.since - f.at}]`);
        invisible.push(`public ${f.kind} at ${f.at} (gaps near, relative: ${near.join(' ') || 'none'})`);
      }
    }
    if (hits(f, 'private') && statusAt(seen.userStatus, f.at - 20)?.connection.type === 'open') {
      // An expiry during a half-open cut reaches the client only when it reconnects (4001 on the old key):
      // then the key change is the gap that follows, within a heartbeat timeout.
      const shown = seen.userGaps.some(({ gap }) =>
        f.kind === 'listenKeyExpiry'
          ? gap.keyChanged && gap.reconnectedAt > f.at && gap.downSince <= f.at + input.heartbeatTimeoutMs + CUT_LATENCY_MS
          : covers(gap.downSince, gap.reconnectedAt, f),
      );
      if (!shown) {
        const near = seen.userGaps.filter(({ gap }) => Math.abs(gap.downSince - f.at) < 10_000).map(({ gap }) => `[${gap.downSince - f.at}, ${gap.reconnectedAt - f.at}${gap.keyChanged ? ' new key' : ''}]`);
        invisible.push(`private ${f.kind} at ${f.at} (gaps near, relative: ${near.join(' ') || 'none'})`);
      }
    }
  }
  const epochHoles = marketEpochs.filter((o) => o.epoch > 1 && o.downSince === undefined).map((o) => `market epoch ${o.epoch} without downSince`);
  if (seen.userGaps.length !== Math.max(0, userOpens.length - 1)) epochHoles.push(`${userOpens.length} user opens but ${seen.userGaps.length} gaps`);
  return [
    check('every topic resumed after the last fault', silent.length > 0 ? [silent[silent.length - 1]!, ...silent.slice(0, -1)] : [], `${topics.length} topics got data after the last fault`),
    check('user stream resumed after the last fault', eventAfter ? [] : ['no private event after the last fault'], 'events flowing'),
    check('every disconnection visible as a gap / new epoch', invisible, 'each cut of an open socket was signalled'),
    check('epochs and gaps consistent', epochHoles, `${marketEpochs.length} market epochs, ${userOpens.length} user opens`),
  ];
}

const ALLOWED_MARKET_ERRORS = [DecodeError, ConnectionClosedError, HeartbeatTimeoutError];
const ALLOWED_USER_ERRORS = [...ALLOWED_MARKET_ERRORS, RequestRejectedError, RequestFailedError];

/** Runs every check; fills `numbers`. */
export function runChecks(input: CheckInput, numbers: SoakNumbers): Check[] {
  const { seen } = input;
  numbers.maxLeadBeforeDownSinceMs = 0;
  const odd = (errors: readonly Error[], allowed: ReadonlyArray<abstract new (...a: never[]) => Error>, where: string): string[] =>
    errors.filter((e) => !allowed.some((c) => e instanceof c)).map((e) => `${where}: ${e.name}: ${e.message}`);
  numbers.decodeErrors = [...seen.marketErrors, ...seen.userErrors].filter((e) => e instanceof DecodeError).length;
  return [
    ...recoveryChecks(input, numbers),
    ...privateChecks(input, numbers),
    ...tradeChecks(input, numbers),
    check('no unhandled error', input.unhandled.map((e) => String(e)), 'none'),
    check('no stream ended', seen.terminated, 'every observable alive until unsubscribed'),
    check(
      'only expected error types',
      [
        ...odd(seen.marketErrors, ALLOWED_MARKET_ERRORS, 'market.errors$'),
        ...odd(seen.userErrors, ALLOWED_USER_ERRORS, 'user.errors$'),
        ...input.unexpectedOrderErrors.map((e) => `orders: ${e.name}: ${e.message}`),
      ],
      `${numbers.decodeErrors} decode errors, all typed`,
    ),
  ];
}

/** What {@link resyncCheck} reads of the consumer's observations. */
export type ResyncSeen = Pick<Observations, 'orders' | 'balances' | 'syncedEpochs'>;

/** The consumer's own state (`orders$`, `balances$`) as {@link Books}. */
const consumerBooks = (seen: ResyncSeen): Books => stateBooks(seen.orders, seen.balances);

const differences = (mine: Books, books: Books): string[] => {
  const problems: string[] = [];
  for (const [id, want] of books.orders) {
    const got = mine.orders.get(id);
    if (got !== want) problems.push(`order ${id}: orders$ ${got ?? 'missing'}, simulator ${want}`);
  }
  const open = new Set(mine.open);
  for (const id of books.open) if (!open.has(id)) problems.push(`order ${id} open on the simulator, not in orders$`);
  const simOpen = new Set(books.open);
  for (const id of mine.open) if (!simOpen.has(id)) problems.push(`order ${id} open in orders$, not on the simulator`);
  for (const [asset, want] of books.balances) {
    const got = mine.balances.get(asset);
    if (got !== want) problems.push(`balance ${asset}: balances$ ${got ?? 'missing'}, simulator ${want}`);
  }
  for (const asset of mine.balances.keys()) if (!books.balances.has(asset)) problems.push(`balance ${asset} in balances$, not on the simulator`);
  return problems;
};

/**
 * The state healed itself: after the run, `orders$` and `balances$` (subscribed by the consumer) are
 * authoritative and equal the simulator's own books exactly: every order the consumer knows as `getOrder`
 * answers it (status, executed and quote quantities), the same open orders as `openOrders`, every balance as
 * `account` gives it (free / locked, as text). The market keeps moving (a resting order may fill between two
 * reads), so both sides are read again, up to `reads` times `pauseMs` apart, until they agree. Fills `numbers`.
 */
export async function resyncCheck(
  seen: ResyncSeen,
  rest: RestClient,
  numbers: SoakNumbers,
  { reads = 3, pauseMs = 1000 }: { readonly reads?: number; readonly pauseMs?: number } = {},
): Promise<Check> {
  numbers.resyncs = seen.syncedEpochs.length;
  let problems: string[] = [];
  for (let read = 1; read <= reads; read += 1) {
    if (read > 1) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    numbers.resyncReads = read;
    problems = [];
    if (seen.orders?.authoritative !== true) problems.push('orders$ not authoritative at the end');
    if (seen.balances?.authoritative !== true) problems.push('balances$ not authoritative at the end');
    const mine = consumerBooks(seen);
    numbers.resyncOrdersCompared = mine.orders.size;
    numbers.resyncBalancesCompared = mine.balances.size;
    try {
      problems.push(...differences(mine, await simulatorBooks(rest, [...mine.orders.keys()])));
    } catch (e) {
      problems.push(`reading the simulator's books failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    }
    if (problems.length === 0) break;
  }
  const epoch = seen.orders?.syncedEpoch;
  return check(
    'orders$ and balances$ authoritative and equal to the simulator\'s books',
    problems,
    `${numbers.resyncOrdersCompared} orders, ${numbers.resyncBalancesCompared} balances equal; synced after epoch ${epoch ?? '?'}, ${numbers.resyncs} snapshots merged`,
  );
}
