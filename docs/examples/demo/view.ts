/** The live terminal screen: the state as lines, redrawn in place. Pure (the caller writes the lines). */
import { describeFill, describeHistory, describeLatency, describeOrder, describeSync, statusBadge } from './describe';
import { clockTime, columns, fit, minuteTime, percent, shortId } from './format';
import type { DemoState, StreamView, SymbolView } from './model';

/** What the screen needs besides the state. */
export interface ScreenContext {
  /** `simulator 127.0.0.1:41234` or `deployment host`. */
  readonly label: string;
  /** Terminal width in columns. */
  readonly width: number;
  /** Terminal height in rows: the event log shrinks so the screen never scrolls. */
  readonly height?: number;
  /** Time left, when the run is bounded. */
  readonly leftMs?: number;
  /** ANSI colours. */
  readonly color: boolean;
}

/** Event log lines shown at the bottom. */
export const SCREEN_LOG_LINES = 9;

const paint = (on: boolean, code: string, text: string): string => (on ? `\x1b[${code}m${text}\x1b[0m` : text);

/** `open e2 · 24 msg/s · errors 1`. */
export const healthLine = (name: string, view: StreamView, unit: string, extra: readonly string[]): string =>
  [`${name} ${statusBadge(view.status)}`, `${view.rate} ${unit}/s`, ...extra, `errors ${view.errors}`].join(' · ');

/** `orders: resynced after epoch 2` when both states agree, else one part each. */
export function syncBadge(state: DemoState): string {
  const orders = describeSync(state.sync.orders);
  const balances = describeSync(state.sync.balances);
  return orders === balances ? `orders/balances: ${orders}` : `orders: ${orders}, balances: ${balances}`;
}

/** Status of both sockets: state, epoch, rate, counters, errors (and whether the private state is synced). */
export function statusLines(state: DemoState): [string, string] {
  const pub = healthLine('public', state.market, 'msg', [`topics ${state.market.topics}`, `trade gaps ${state.market.tradeGaps}`]);
  const priv = state.user.enabled ? healthLine('private', state.user, 'event', [`gaps ${state.user.gaps}`, syncBadge(state)]) : 'private off';
  return [pub, priv];
}

/** The status line: both sockets' state, epoch, rates and error counts. */
export const statusLine = (state: DemoState): string => statusLines(state).join('  |  ');

/** Book, candle, ticker and trades of one symbol, four lines. */
export function symbolLines(v: SymbolView, arrows = true): string[] {
  const indent = ' '.repeat(Math.max(9, v.symbol.length + 1));
  const b = v.book;
  const book =
    b === undefined
      ? 'waiting for depth…'
      : columns(
          [
            `bid ${b.bestBid ? `${b.bestBid[0]} × ${b.bestBid[1]}` : '—'}`,
            `ask ${b.bestAsk ? `${b.bestAsk[0]} × ${b.bestAsk[1]}` : '—'}`,
            `spread ${b.spread ?? '—'}`,
            `mid ${b.mid ?? '—'}${b.crossed ? '  CROSSED' : ''}`,
          ],
          [26, 26, 14],
        );
  const k = v.candle;
  const candle =
    k === undefined
      ? 'candle: waiting…'
      : `candle ${v.candleInterval ?? ''} ${minuteTime(k.t)}  O ${k.o}  H ${k.h}  L ${k.l}  C ${k.c}  V ${k.v}`;
  const r = v.ticker;
  const ticker =
    r === undefined
      ? 'ticker: waiting…'
      : `ticker 24h  last ${r.c}  high ${r.h}  low ${r.l}  ${percent(r.m)}  vol ${r.v}${r.qv === undefined ? '' : ` (${r.qv} quote)`}`;
  const side = (sold: boolean): string => (arrows ? (sold ? '▼' : '▲') : sold ? 'sell' : 'buy');
  const trades =
    v.trades.length === 0
      ? 'trades: waiting…'
      : `trades (${v.tradeCount} seen)  ${v.trades.slice(0, 4).map((t) => `${side(t.takerSold)} ${t.price} × ${t.quantity}`).join('   ')}`;
  return [`${v.symbol.padEnd(indent.length)}${book}`, `${indent}${candle}`, `${indent}${ticker}`, `${indent}${trades}`];
}

/** The private block: listen key, balances, orders. */
export function accountLines(state: DemoState): string[] {
  if (!state.user.enabled) return ['ACCOUNT  private side off (set the EX_STREAMS_* variables, see --help)'];
  const lk = state.listenKey;
  const key =
    lk === undefined
      ? 'listen key: requesting…'
      : `listen key ${lk.redacted} obtained ${clockTime(lk.obtainedAt)}, extended ${lk.extensions}×` +
        (lk.lastExtendedAt === undefined ? '' : ` (last PUT ${clockTime(lk.lastExtendedAt)})`);
  const balances =
    state.balances.length === 0
      ? 'balances: waiting…'
      : `balances (free / locked)  ${state.balances.map((b) => `${b.asset} ${b.free} / ${b.locked}`).join('   ')}`;
  // The last column: the last fill's time from its event time E to the state on orders$ (folded on arrival).
  const widths = [10, 10, 31, 34, 24];
  const orders =
    state.orders.length === 0
      ? ['         orders: none yet']
      : [
          `         ${columns(['ID', 'ROLE', 'ORDER', 'LIFECYCLE (orders$)', 'FILLED', 'FILL E → orders$'], widths)}`,
          ...state.orders.map(
            (o) =>
              `         ${columns(
                [shortId(o.orderId), o.role ?? '', describeOrder(o), describeHistory(o), describeFill(o, false), o.fillLatency ? describeLatency(o.fillLatency) : ''],
                widths,
              )}`,
          ),
        ];
  return [`ACCOUNT  ${key}`, `         ${balances}`, ...orders];
}

/** The whole screen. */
export function renderScreen(state: DemoState, ctx: ScreenContext): string[] {
  const { width, color } = ctx;
  const rule = '─'.repeat(Math.max(0, Math.min(width, 120)));
  const left = ctx.leftMs === undefined ? 'until Ctrl-C' : `${Math.ceil(Math.max(0, ctx.leftMs) / 1000)} s left · Ctrl-C to stop`;
  const header = `ex-streams demo · ${ctx.label} · ${clockTime(state.now).slice(0, 8)} · ${left}`;
  const top: Array<[string, string?]> = [
    [header, '1'],
    ...statusLines(state).map((l): [string, string] => [l, '36']),
    [rule, '2'],
    ...state.symbols.flatMap((s) => symbolLines(s).map((l, i): [string, string?] => (i === 0 ? [l, '1'] : [l]))),
    [rule, '2'],
    ...accountLines(state).map((l, i): [string, string?] => (i === 0 ? [l, '1'] : [l])),
    [rule, '2'],
    ['EVENTS', '1'],
  ];
  const room = ctx.height === undefined ? SCREEN_LOG_LINES : Math.min(SCREEN_LOG_LINES, ctx.height - 1 - top.length);
  const log = room > 0 ? state.log.slice(-room) : [];
  const lines: Array<[string, string?]> = [
    ...top,
    ...log.map((l): [string, string?] => {
      const text = `  ${clockTime(l.at)}  ${l.text}`;
      return l.level === 'warn' ? [text, '33'] : [text];
    }),
  ];
  const visible = ctx.height === undefined ? lines : lines.slice(0, Math.max(1, ctx.height - 1));
  return visible.map(([text, code]) => {
    const cut = fit(text, width);
    return code === undefined ? cut : paint(color, code, cut);
  });
}
