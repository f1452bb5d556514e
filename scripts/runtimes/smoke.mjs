// The real-socket subset that scripts/check-runtimes.ts runs on each runtime (Node 22 and 24, Bun, Deno), beside
// the README's first streams: plain JavaScript against the installed package, as a user's script would be.
//
// On the runtime under test it starts the simulator (`ex-streams/simulator`: the server side on node:http and ws),
// then, over real sockets on 127.0.0.1:
//   market   one socket: an order book (depth → orderBook), a trade, the connection open at epoch 1;
//   zip      zip binary frames, through the default inflater (fflate) and `nodeInflateRaw` (node:zlib);
//   reconnect the simulator drops the socket: epoch 2, and the book again;
//   rest     a signed USER_DATA call (HMAC-SHA256 on this runtime) decoded with an io-ts codec;
//   orders   the user stream (listen key, private socket): placeOrder to NEW, cancelOrder to CANCELED, orders$;
//   codecs   decodeWith: a valid record, and a refusal naming its path;
//   testing  the test kit's zip frame through decodeFrame (the frame path without a socket).
// Prints `ok <step> (<ms> ms)` per step and `smoke: ok`; on a failure or after 45 s, the reason and exit code 1.
//
//   node smoke.mjs | bun smoke.mjs | deno run -A smoke.mjs   (from a folder whose node_modules has ex-streams)
import * as t from 'io-ts';
import { filter, firstValueFrom, map, take, timeout } from 'rxjs';
import { marketStreams, orderBook, restClient, userStream } from 'ex-streams';
import { decodeFrame, decodeWith, TradeRecordCodec } from 'ex-streams/codecs';
import { startSimulator } from 'ex-streams/simulator';
import { zipFrame } from 'ex-streams/testing';
import { nodeInflateRaw } from 'ex-streams/node';
import { inflateRaw } from 'ex-streams/zip';

const STEP_MS = 10_000;
const deadline = setTimeout(() => {
  console.error('smoke: FAILED: not done within 45 s');
  process.exit(1);
}, 45_000);

const check = (ok, what) => {
  if (!ok) throw new Error(what);
};
const first = (source, what) => firstValueFrom(source.pipe(timeout({ first: STEP_MS, with: () => { throw new Error(`no ${what} within ${STEP_MS} ms`); } })));
const step = async (name, body) => {
  const t0 = performance.now();
  const detail = await body();
  console.log(`ok ${name} (${Math.round(performance.now() - t0)} ms)${detail ? `: ${detail}` : ''}`);
};
const aBook = (market) => first(market.depth('BTCUSDT').pipe(orderBook({ levels: 5 }), filter((b) => b.bestBid !== undefined && b.bestAsk !== undefined)), 'book');

const sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 7 });
const subs = [];
try {
  const market = marketStreams({ url: sim.publicStreamUrl });
  const status = [];
  await step('market', async () => {
    subs.push(market.status$.subscribe((s) => status.push(`${s.connection.type} ${s.connection.epoch}`)));
    subs.push(market.depth('BTCUSDT').subscribe()); // holds the socket for the next step
    const [book, trade] = await Promise.all([aBook(market), first(market.trades('BTCUSDT'), 'trade')]);
    check(/^\d/.test(book.spread ?? ''), `spread ${book.spread}`);
    check(/^\d/.test(trade.p) && typeof trade.v === 'string', `trade ${JSON.stringify(trade)}`);
    check(status.includes('open 1'), `status ${status.join(', ')}`);
    return `bid ${book.bestBid[0]} ask ${book.bestAsk[0]}, trade ${trade.q} @ ${trade.p}`;
  });

  await step('reconnect', async () => {
    sim.drop({ stream: 'public', code: 1012, reason: 'service restart' });
    await first(market.status$.pipe(filter((s) => s.connection.type === 'open' && s.connection.epoch === 2)), 'epoch 2');
    await aBook(market);
    return status.filter((s, i) => s !== status[i - 1]).join(', ');
  });

  await step('zip', async () => {
    const fflate = await aBook(marketStreams({ url: sim.publicStreamUrl, binary: true }));
    const zlib = await aBook(marketStreams({ url: sim.publicStreamUrl, binary: true, connection: { inflateRaw: nodeInflateRaw } }));
    return `default inflater bid ${fflate.bestBid[0]}, nodeInflateRaw bid ${zlib.bestBid[0]}`;
  });

  const rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
  await step('rest', async () => {
    const Account = t.type({ balances: t.array(t.type({ asset: t.string, free: t.string, locked: t.string })) });
    const account = await first(rest.request({ method: 'GET', path: '/api/v1/account', security: 'USER_DATA', codec: Account }), 'account');
    const usdt = account.balances.find((b) => b.asset === 'USDT');
    check(usdt !== undefined, 'no USDT balance');
    return `USDT free ${usdt.free}`;
  });

  await step('orders', async () => {
    const user = userStream({ url: sim.privateStreamUrl, rest });
    subs.push(user.orders$.subscribe());
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '1000' };
    const placed = await first(user.placeOrder(order).pipe(filter((o) => o.status === 'NEW')), 'NEW order');
    const known = await first(user.orders$.pipe(map((all) => all.get(placed.orderId)), filter((o) => o?.status === 'NEW')), 'order in orders$');
    const cancelled = await first(user.cancelOrder({ orderId: placed.orderId }).pipe(take(1)), 'cancel');
    check(cancelled.status === 'CANCELED', `cancel: ${cancelled.status}`);
    return `${known.orderId} NEW, then ${cancelled.status}`;
  });

  await step('codecs', async () => {
    const good = decodeWith(TradeRecordCodec, { v: '1', t: 1, p: '1', q: '1', m: true });
    check(good._tag === 'Right' && good.right.p === '1', 'a valid trade record refused');
    const bad = decodeWith(TradeRecordCodec, { v: '1', t: 1, q: '1', m: true });
    check(bad._tag === 'Left' && bad.left.paths.some((p) => p.includes('TradeRecord/p')), 'a trade record without p accepted');
    return bad.left.paths[0];
  });

  await step('testing', async () => {
    const text = JSON.stringify({ symbol: 'BTCUSDT', topic: 'trade', data: [] });
    const frame = zipFrame(text);
    const decoded = decodeFrame(frame, { inflateRaw });
    check(decoded._tag === 'Right' && JSON.stringify(decoded.right) === text, `decodeFrame: ${decoded._tag === 'Left' ? decoded.left.message : JSON.stringify(decoded.right)}`);
    return `${frame.byteLength} zip bytes decoded`;
  });
} catch (e) {
  console.error(`smoke: FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
} finally {
  for (const s of subs) s.unsubscribe();
  await sim.close();
  clearTimeout(deadline);
}
if (process.exitCode !== 1) console.log('smoke: ok');
