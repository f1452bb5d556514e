'use strict';
/*
 * End-to-end run of the built Angular example (docs/examples/angular/dist/browser) in headless Chromium:
 *   1. starts the ex-streams simulator (dist/cjs/simulator.js, or lib/ through ts-node) on an ephemeral port;
 *   2. serves the built app with scripts/angular/static-server.js on 127.0.0.1 (ephemeral port);
 *   3. opens ?ws=<public stream url>&symbol=BTCUSDT in Debian's Chromium through playwright-core;
 *   4. waits until the page shows a book (best bid < best ask, spread and mid) and at least one trade,
 *      saves a screenshot to .tmp/angular/angular-app.png;
 *   5. destroys the book component (Stop) and waits until the socket is closed on both sides and the
 *      status line says so; creates it again (Start) and waits for a new socket and a new book;
 *   6. switches the symbol dropdown 20 times in quick succession (BTCUSDT ↔ ETHUSDT, whose prices are ~30 000 and
 *      ~2 000) while a MutationObserver checks every render: the book and trades shown are always the selected
 *      symbol's (heading and price band), a loading state is shown in between, and the last symbol goes live on
 *      the same socket.
 * Exits 0 on success, 1 with a message naming the failed step otherwise. Everything it starts is closed.
 * Usage: node scripts/angular/e2e.js [appDir]   (CHROMIUM_PATH overrides /usr/bin/chromium)
 */
const { existsSync, mkdirSync, mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serveStatic } = require('./static-server');

const ROOT = path.resolve(__dirname, '..', '..');
const APP_DIR = path.resolve(process.argv[2] || path.join(ROOT, 'docs', 'examples', 'angular', 'dist', 'browser'));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SCREENSHOT = path.join(ROOT, '.tmp', 'angular', 'angular-app.png');
const SYMBOL = 'BTCUSDT';
const OTHER_SYMBOL = 'ETHUSDT';
const SWITCHES = 20;
const STEP_TIMEOUT_MS = 20_000;
const TOTAL_TIMEOUT_MS = 90_000;
// Headless, and no attempt to reach the internet (shared with spec/browser/browser.spec.ts).
const FLAGS = require('../chromium-flags.json');

const log = (message) => process.stdout.write(`angular-e2e: ${message}\n`);

function loadSimulator() {
  const built = path.join(ROOT, 'dist', 'cjs', 'simulator.js');
  if (existsSync(built)) return require(built);
  require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'CommonJS', moduleResolution: 'node' } });
  return require(path.join(ROOT, 'lib', 'simulator', 'index.ts'));
}

/** Runs `fn`, turning any failure into an error that names the step. */
async function step(name, fn) {
  try {
    return await fn();
  } catch (e) {
    const error = new Error(`${name}: ${e && e.message ? e.message.split('\n')[0] : String(e)}`);
    error.step = true;
    throw error;
  }
}

/** Polls `check` until it returns true or `timeoutMs` passes. */
async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads the rendered book and trades in one go (the page re-renders every 100 ms). */
function readBook(page) {
  return page.evaluate(() => {
    const value = (id) => (document.getElementById(id)?.textContent || '').trim();
    return {
      bid: value('best-bid'),
      ask: value('best-ask'),
      spread: value('spread'),
      mid: value('mid'),
      trades: [...document.querySelectorAll('#trades tr.trade')].map((r) => [...r.cells].map((c) => c.textContent.trim()).join(' ').trim()),
    };
  });
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** Waits until the book and at least one trade are rendered, and checks what is shown. */
async function expectLiveBook(page) {
  await page.waitForFunction(
    (pattern) => {
      const re = new RegExp(pattern);
      const value = (id) => (document.getElementById(id)?.textContent || '').trim();
      return re.test(value('best-bid')) && re.test(value('best-ask')) && document.querySelectorAll('#trades tr.trade').length > 0;
    },
    DECIMAL.source,
    { timeout: STEP_TIMEOUT_MS },
  );
  const book = await readBook(page);
  const [bid, ask, spread, mid] = [book.bid, book.ask, book.spread, book.mid].map(Number);
  if (!(bid < ask)) throw new Error(`best bid ${book.bid} is not below best ask ${book.ask}`);
  if (!DECIMAL.test(book.spread) || Math.abs(spread - (ask - bid)) > 1e-6) throw new Error(`spread ${book.spread} is not ask - bid (${book.ask} - ${book.bid})`);
  if (!DECIMAL.test(book.mid) || Math.abs(mid - (ask + bid) / 2) > 1e-6) throw new Error(`mid ${book.mid} is not (ask + bid) / 2`);
  for (const row of book.trades) {
    if (!/^\d\d:\d\d:\d\d\.\d{3} \d+ [\d.]+ [\d.]+ (sell|buy)$/.test(row)) throw new Error(`unexpected trade row: ${row}`);
  }
  return book;
}

/**
 * Installs a MutationObserver that checks every render: the book heading is the selected symbol, and every price
 * shown (best bid, best ask, trades) lies in the selected symbol's band (the simulator starts BTCUSDT at 30 000 and
 * ETHUSDT at 2 000). Then switches the dropdown `SWITCHES` times with short, varied pauses (0-45 ms, shorter than a
 * round trip to the first snapshot sometimes, longer other times), and waits for the last symbol's live book.
 */
async function switchSymbols(page) {
  await page.evaluate((btc) => {
    const state = { renders: 0, loadingRenders: 0, mismatches: [] };
    window.__switchCheck = state;
    const text = (el) => (el?.textContent || '').trim();
    new MutationObserver(() => {
      const selected = document.getElementById('symbol').value;
      const heading = text(document.getElementById('book-symbol'));
      const prices = [text(document.getElementById('best-bid')), text(document.getElementById('best-ask')),
        ...[...document.querySelectorAll('#trades tr.trade td.price')].map(text)].filter((p) => p !== '' && p !== '-');
      const inBand = (p) => (selected === btc ? Number(p) > 10000 : Number(p) < 10000);
      state.renders += 1;
      if (document.getElementById('book-loading')) state.loadingRenders += 1;
      const wrong = prices.filter((p) => !inBand(p));
      if (heading !== selected || wrong.length > 0) state.mismatches.push(`selected ${selected}, heading ${heading}, prices ${wrong.join(' ')}`);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, SYMBOL);
  let symbol = SYMBOL;
  for (let i = 0; i < SWITCHES; i++) {
    symbol = symbol === SYMBOL ? OTHER_SYMBOL : SYMBOL;
    await page.selectOption('#symbol', symbol);
    await new Promise((resolve) => setTimeout(resolve, (i * 17) % 50));
  }
  await expectLiveBook(page);
  const book = await readBook(page);
  const state = await page.evaluate(() => window.__switchCheck);
  if (state.mismatches.length > 0) throw new Error(`${state.mismatches.length} render(s) showed another symbol's data: ${state.mismatches.slice(0, 3).join(' | ')}`);
  if (state.loadingRenders === 0) throw new Error('no render showed the loading state after a switch');
  const last = Number(book.bid);
  if (symbol === SYMBOL ? !(last > 10000) : !(last < 10000)) throw new Error(`the final book (bid ${book.bid}) is not ${symbol}'s`);
  return { ...state, final: symbol };
}

async function main() {
  if (!existsSync(path.join(APP_DIR, 'index.html'))) {
    throw new Error(`no built app at ${APP_DIR} (run ng build in docs/examples/angular)`);
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  const { chromium } = require('playwright-core');
  const { startSimulator } = loadSimulator();

  const closers = [];
  const pageErrors = [];
  const consoleErrors = [];
  const sockets = [];
  try {
    const sim = await step('start the simulator', () =>
      startSimulator({ symbols: [SYMBOL, OTHER_SYMBOL], seed: 7, periodsMs: { trade: 100, depth: 100 }, marketStepMs: 100, depthLevels: 20 }),
    );
    closers.push(() => sim.close());
    const server = await step('serve the built app', () => serveStatic(APP_DIR));
    closers.push(() => server.close());
    log(`simulator ${sim.publicStreamUrl}, app ${server.origin}`);

    const profile = mkdtempSync(path.join(os.tmpdir(), 'chr-'));
    closers.push(() => rmSync(profile, { recursive: true, force: true }));
    const context = await step('launch Chromium', () =>
      chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS }),
    );
    closers.push(() => context.close());
    const page = context.pages()[0] || (await context.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('websocket', (ws) => sockets.push(ws));

    const url = `${server.origin}/?${new URLSearchParams({ ws: sim.publicStreamUrl, symbol: SYMBOL })}`;
    await step('load the app', () => page.goto(url, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS }));

    const book = await step('render a live book and trades', () => expectLiveBook(page));
    log(`book bid=${book.bid} ask=${book.ask} spread=${book.spread} mid=${book.mid}, ${book.trades.length} trades shown`);
    await step('status shows an open connection', () =>
      page.waitForFunction(() => /^open · epoch 1 · topics 2/.test(document.getElementById('status')?.textContent || ''), null, { timeout: STEP_TIMEOUT_MS }),
    );
    if (sockets.length !== 1 || sockets[0].url() !== sim.publicStreamUrl) {
      throw new Error(`expected one websocket to ${sim.publicStreamUrl}, saw ${sockets.map((s) => s.url()).join(', ') || 'none'}`);
    }
    await step('save the screenshot', async () => {
      mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    });
    log(`screenshot ${path.relative(ROOT, SCREENSHOT)}`);

    await step('destroying the component closes the socket', async () => {
      await page.click('#toggle');
      await until(() => sockets[0].isClosed(), STEP_TIMEOUT_MS, 'the browser socket to close');
      await until(() => sim.observed().connections.public === 0, STEP_TIMEOUT_MS, 'the simulator to see the socket close');
      await page.waitForFunction(() => /^closed/.test(document.getElementById('status')?.textContent || ''), null, { timeout: STEP_TIMEOUT_MS });
      if (await page.$('app-live-book')) throw new Error('the live book is still in the page');
    });
    const cancelled = sim.observed().cancels.map((c) => `${c.symbol}/${c.topic}`).sort();
    if (cancelled.join(',') !== `${SYMBOL}/depth,${SYMBOL}/trade`) {
      throw new Error(`destroying the component: expected cancels of depth and trade, the simulator saw [${cancelled.join(', ')}]`);
    }
    log(`component destroyed: depth and trade cancelled, socket closed`);

    await step('creating the component again opens a new socket', async () => {
      await page.click('#toggle');
      await until(() => sockets.length === 2, STEP_TIMEOUT_MS, 'a second websocket');
      await expectLiveBook(page);
      await page.waitForFunction(() => /^open · epoch/.test(document.getElementById('status')?.textContent || ''), null, { timeout: STEP_TIMEOUT_MS });
    });
    log('component created again: new socket, live book');

    const switched = await step(`${SWITCHES} quick symbol switches never show one symbol's data under another's name`, async () => {
      const result = await switchSymbols(page);
      if (sockets.length !== 2) throw new Error(`switching symbols opened sockets: ${sockets.length} in all, expected the 2 of before`);
      await page.waitForFunction(() => /^open · epoch \d+ · topics 2 /.test(document.getElementById('status')?.textContent || ''), null, { timeout: STEP_TIMEOUT_MS });
      return result;
    });
    log(`${SWITCHES} symbol switches: ${switched.renders} renders checked, loading shown in ${switched.loadingRenders}, ` +
      `${switched.final} live again on the same socket`);

    if (pageErrors.length > 0) throw new Error(`page errors: ${pageErrors.join(' | ')}`);
    if (consoleErrors.length > 0) throw new Error(`console errors: ${consoleErrors.join(' | ')}`);
  } catch (e) {
    const seen = [...pageErrors.map((m) => `page error: ${m}`), ...consoleErrors.map((m) => `console error: ${m}`)];
    if (seen.length > 0 && e && e.step) e.message += `\n  the page reported:\n  ${seen.join('\n  ')}`;
    throw e;
  } finally {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch (e) {
        log(`cleanup: ${e && e.message}`);
      }
    }
  }
}

const watchdog = setTimeout(() => {
  process.stderr.write(`angular-e2e: FAILED: gave up after ${TOTAL_TIMEOUT_MS / 1000} s\n`);
  process.exit(1);
}, TOTAL_TIMEOUT_MS);
watchdog.unref();

main().then(
  () => {
    log('OK');
    process.exit(0);
  },
  (e) => {
    process.stderr.write(`angular-e2e: FAILED: ${e && e.message ? e.message : e}\n`);
    process.exit(1);
  },
);
