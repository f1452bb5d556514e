/** Plain output for pipes and CI: timestamped lines, no cursor movement. Pure. */
import { describeOrderChange } from './describe';
import { clockTime } from './format';
import type { DemoState, LogLine } from './model';
import { accountLines, statusLine, symbolLines } from './view';

/** `12:00:05.123  text`. */
export const plainLine = (at: number, text: string): string => `${clockTime(at)}  ${text}`;

/** Log lines not printed yet (`seq` above `printedSeq`). */
export const newLogLines = (state: DemoState, printedSeq: number): readonly LogLine[] =>
  state.log.filter((l) => l.seq > printedSeq);

const squeeze = (text: string): string => text.trim().replace(/\s{3,}/g, '  ');

/** A periodic snapshot: the status line, two lines per symbol, the balances. */
export function plainSnapshot(state: DemoState): string[] {
  const at = state.now;
  const symbols = state.symbols.flatMap((s) => {
    const [book = '', candle = '', ticker = ''] = symbolLines(s, false).map(squeeze);
    const trades = s.trades.slice(0, 3).map((t) => `${t.takerSold ? 'sell' : 'buy'} ${t.price} × ${t.quantity}`);
    return [
      plainLine(at, `${s.symbol} book ${book.slice(s.symbol.length).trim()} | last trades (${s.tradeCount} seen): ${trades.join(', ') || 'none yet'}`),
      plainLine(at, `${s.symbol} ${candle} | ${ticker}`),
    ];
  });
  const [, balances] = accountLines(state);
  return [
    plainLine(at, `status: ${statusLine(state)}`),
    ...symbols,
    ...(state.user.enabled && balances !== undefined ? [plainLine(at, squeeze(balances))] : []),
  ];
}

/** The closing summary: every order's lifecycle and the final counters. */
export function plainSummary(state: DemoState): string[] {
  const at = state.now;
  return [
    plainLine(at, `summary: ${state.market.messages} public messages, ${state.user.messages} private events, ` +
      `${state.market.errors + state.user.errors} non-fatal errors, ${state.market.tradeGaps} trade gaps, ${state.user.gaps} user-stream gaps`),
    ...state.orders.map((o) => plainLine(at, `final ${describeOrderChange(o)}`)),
  ];
}
