import { of, lastValueFrom } from 'rxjs';
import { orderBook, type DepthRecord, type OrderBook } from '../../lib/index';
import { initialState, type DemoEvent, type DemoState } from '../../docs/examples/demo/model';
import { plainSnapshot } from '../../docs/examples/demo/plain';
import { reduce } from '../../docs/examples/demo/reduce';
import { renderScreen } from '../../docs/examples/demo/view';

const book = (record: DepthRecord): Promise<OrderBook> => lastValueFrom(of(record).pipe(orderBook({ levels: 5 })));

async function sampleState(): Promise<DemoState> {
  const events: DemoEvent[] = [
    { type: 'book', symbol: 'BTCUSDT', book: await book({ s: 'BTCUSDT', t: 1, a: [['30000.01', '1.2']], b: [['29999.99', '0.5']] }) },
    { type: 'trade', symbol: 'BTCUSDT', trade: { v: '2300000000000000001', t: 1, p: '30000.01', q: '0.1', m: false } },
    { type: 'candle', symbol: 'BTCUSDT', interval: '1m', candle: { t: 0, o: '1', h: '2', l: '0.5', c: '1.5', v: '10' } },
    { type: 'ticker', symbol: 'BTCUSDT', ticker: { t: 0, o: '1', h: '2', l: '0.5', c: '1.5', v: '10', m: '0.5' } },
    { type: 'listenKey', action: 'obtained', redactedKey: 'abcd…' },
    ...Array.from({ length: 30 }, (_, i): DemoEvent => ({ type: 'note', text: `note ${i}` })),
  ];
  return events.reduce((s, event) => reduce(s, { at: 5_000, event }), initialState(['BTCUSDT', 'ETHUSDT'], 0, true));
}

describe('renderScreen', () => {
  it('shows book, trades, candle, ticker and the status line, within the terminal size', async () => {
    const state = await sampleState();
    const narrow = renderScreen(state, { label: 'simulator 127.0.0.1:1', width: 60, height: 20, color: false });
    expect(narrow.length).toBeLessThanOrEqual(19);
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(60);
    const lines = renderScreen(state, { label: 'simulator 127.0.0.1:1', width: 120, height: 40, color: false, leftMs: 2_500 });
    expect(lines.length).toBeLessThanOrEqual(39);
    const text = lines.join('\n');
    expect(text).toMatch(/^ex-streams demo · simulator 127\.0\.0\.1:1 · \d\d:\d\d:\d\d · 3 s left/);
    expect(text).toContain('public idle · 0 msg/s · topics 0');
    expect(text).toContain('BTCUSDT  bid 29999.99 × 0.5');
    expect(text).toContain('candle 1m');
    expect(text).toContain('ticker 24h  last 1.5  high 2  low 0.5  +50.00%');
    expect(text).toContain('trades (1 seen)  ▲ 30000.01 × 0.1');
    expect(text).toContain('ETHUSDT  waiting for depth…');
    expect(text).toContain('listen key abcd… obtained');
    expect(text).toContain('note 29');
    expect(text).not.toContain('note 0\n');
  });

  it('colours with ANSI only when asked', async () => {
    const state = await sampleState();
    expect(renderScreen(state, { label: 'x', width: 200, color: true }).join('\n')).toContain('\x1b[1m');
    expect(renderScreen(state, { label: 'x', width: 200, color: false }).join('\n')).not.toContain('\x1b[');
  });
});

describe('plainSnapshot', () => {
  it('prints timestamped status, book, trade, candle and ticker lines', async () => {
    const lines = plainSnapshot(await sampleState());
    expect(lines.every((l) => /^\d\d:\d\d:\d\d\.\d{3} {2}/.test(l))).toBe(true);
    const text = lines.join('\n');
    expect(text).toMatch(/status: public idle .* \| {2}private idle/);
    expect(text).toMatch(/BTCUSDT book bid 29999\.99 × 0\.5 {2}ask 30000\.01 × 1\.2 {2}spread 0\.02 {2}mid 30000\.00 \| last trades \(1 seen\): buy 30000\.01 × 0\.1/);
    expect(text).toMatch(/BTCUSDT candle 1m \d\d:\d\d {2}O 1 {2}H 2 {2}L 0\.5 {2}C 1\.5 {2}V 10 \| ticker 24h/);
  });
});
