/** Small text helpers of the demo: times, decimals, listen-key redaction, column layout. */

/** `HH:MM:SS.mmm` in local time. */
export const clockTime = (ms: number): string => {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
};

/** `HH:MM` in local time (candle open times). */
export const minuteTime = (ms: number): string => clockTime(ms).slice(0, 5);

/** Seconds with two decimals: `0.48 s`. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** A listen key as it may be shown: its first 4 characters and an ellipsis. Never print the whole key. */
export const redactKey = (key: string): string => `${key.slice(0, 4)}…`;

/** A long id shortened for a narrow column: `1900…0001`. */
export const shortId = (id: string): string => (id.length > 10 ? `${id.slice(0, 4)}…${id.slice(-4)}` : id);

/** The ticker's change ratio (`m`, e.g. `0.0012`) as a signed percentage: `+0.12%`. */
export const percent = (ratio: string | undefined): string => {
  if (ratio === undefined || ratio === '') return '';
  const value = Number(ratio) * 100;
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}%`;
};

/** Cuts `text` to `width` characters (an ellipsis marks the cut). */
export const fit = (text: string, width: number): string =>
  text.length <= width ? text : width <= 1 ? text.slice(0, width) : `${text.slice(0, width - 1)}…`;

/** Joins cells padded to the given widths (the last cell is not padded). */
export const columns = (cells: readonly string[], widths: readonly number[]): string =>
  cells.map((cell, i) => (i < cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell)).join(' ');
