/**
 * The core bundle in a real browser: Debian's Chromium, driven through playwright-core, loads a page built from
 * the core sources as the package's browser build has them (spec/browser/page/main.ts, spec/browser/buildPage.ts:
 * no `ws` anywhere, no default zip inflater). The page subscribes to depth (text frames) and trades (zip frames,
 * inflated by `ex-streams/zip`) of the simulator through the browser's native WebSocket, signs with Web Crypto,
 * makes a signed REST call, and renders what it got; the test reads the rendered text and saves a screenshot to
 * .tmp/browser/.
 *
 * Without /usr/bin/chromium (or CHROMIUM_PATH) the suite is skipped with a note, except under CI where it fails.
 */
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../lib/simulator/index';
import CHROMIUM_FLAGS from '../../scripts/chromium-flags.json';
import { buildPage } from './buildPage';
import { startPageServer, type PageServer } from './pageServer';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Headless, and no attempt to reach the internet (shared with scripts/angular/e2e.js).
const FLAGS: string[] = CHROMIUM_FLAGS;
const SYMBOL = 'BTCUSDT';
const MESSAGE = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=0.1&recvWindow=5000&timestamp=1700000000000';
const SCREENSHOT = path.join(__dirname, '..', '..', '.tmp', 'browser', 'chromium-page.png');

const available = existsSync(CHROMIUM);
const required = Boolean(process.env.CI);
if (!available && !required) {
  // eslint-disable-next-line no-console
  console.warn(`browser.spec: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
}

(available || required ? describe : describe.skip)('the core bundle in Chromium', () => {
  let sim: Simulator | undefined;
  let server: PageServer | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let profileDir: string | undefined;
  let workDir: string | undefined;
  const sockets: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!available) {
      throw new Error(`Chromium is required under CI but ${CHROMIUM} does not exist: run apt-get install -y chromium first`);
    }
    workDir = mkdtempSync(path.join(os.tmpdir(), 'ex-streams-page-'));
    const bundle = path.join(workDir, 'page.js');
    const [simulator] = await Promise.all([
      startSimulator({ symbols: [SYMBOL], seed: 7, periodsMs: { trade: 100, depth: 100 }, marketStepMs: 100, depthLevels: 20 }),
      buildPage(path.join(__dirname, 'page', 'main.ts'), bundle),
    ]);
    sim = simulator;
    server = await startPageServer(bundle, sim.baseUrl);

    profileDir = mkdtempSync(path.join(os.tmpdir(), 'chr-'));
    context = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: FLAGS });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('websocket', (ws) => sockets.push(ws.url()));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const hash = new URLSearchParams({ stream: sim.publicStreamUrl, symbol: SYMBOL, apiKey: sim.apiKey, secretKey: sim.secretKey, message: MESSAGE });
    await page.goto(`${server.origin}/#${hash}`);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await sim?.close();
    for (const dir of [profileDir, workDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Waits until the element's text matches, then returns it. */
  async function rendered(id: string, pattern: RegExp): Promise<string> {
    await page.waitForFunction(
      ([elementId, source]) => new RegExp(source as string).test(document.getElementById(elementId as string)?.textContent ?? ''),
      [id, pattern.source],
      { timeout: 10_000 },
    );
    return (await page.textContent(`#${id}`)) ?? '';
  }

  it('renders the best bid and ask of the depth stream, received over the native WebSocket', async () => {
    const book = await rendered('book', /bid=\d/);
    const match = /^BTCUSDT bid=([\d.]+) ask=([\d.]+) spread=([\d.]+) levels=(\d+)\/(\d+)$/.exec(book);
    expect(match).not.toBeNull();
    const [, bid, ask, spread, bids, asks] = match as RegExpExecArray;
    expect(Number(bid)).toBeLessThan(Number(ask));
    expect(Number(spread)).toBeCloseTo(Number(ask) - Number(bid), 6);
    expect([Number(bids), Number(asks)]).toEqual([20, 20]);
    expect(sockets).toEqual([sim?.publicStreamUrl]);
  });

  it('renders the last trades with their 64-bit ids intact, from zip frames inflated by ex-streams/zip', async () => {
    const text = await rendered('trades', /@/);
    const lines = text.split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(line).toMatch(/^23\d{17} (BUY|SELL) [\d.]+ @ [\d.]+$/);
    const subscriptions = sim?.observed().subscriptions.map((s) => `${s.topic} binary=${s.binary}`);
    expect(subscriptions).toEqual(expect.arrayContaining(['depth binary=false', 'trade binary=true']));
  });

  it('signs with Web Crypto exactly as node:crypto does', async () => {
    const signature = await rendered('signature', /^([0-9a-f]{64}|failed.*)$/);
    expect(signature).toBe(createHmac('sha256', sim?.secretKey ?? '').update(MESSAGE).digest('hex'));
  });

  it('makes a signed request the simulator accepts', async () => {
    expect(await rendered('listen-key', /ok|failed/)).toMatch(/^listen key ok \(\d+ chars\)$/);
  });

  it('shows an open connection, no errors, and saves a screenshot', async () => {
    expect(await rendered('status', /open/)).toBe('open epoch=1 topics=2');
    expect(await page.textContent('#errors')).toBe('');
    expect(pageErrors).toEqual([]);
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
