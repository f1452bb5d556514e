/**
 * "From npm", checked on the packed package (CI, after `npm run build`):
 *
 * 1. `npm pack` the repository and unpack it as `node_modules/ex-streams` of a scratch project under .tmp/
 *    (its dependencies resolve from the repository's node_modules, further up);
 * 2. every relative link of the installed README.md and docs/*.md points to a file of the installed package,
 *    and docs/api is not there;
 * 3. the installed `ex-streams-simulator` (bin, on the built dist/) prints a `guide:` line naming the installed
 *    docs/simulator.md, and with `--json` the addresses and credentials;
 * 4. the README's two "A first stream" blocks, saved as `market.mjs` / `user.mjs` with the example hosts
 *    replaced by the simulator's (as the README says) and run by plain `node`, show data within seconds;
 * 5. the installed `ex-streams record` (bin, on the built dist/) records 2 s of that simulator into a complete
 *    recording, and `ex-streams-simulator --recording` serves it.
 *
 *   node -r ts-node/register/transpile-only scripts/check-packed-readme.ts
 */
import * as fs from 'fs';
import * as path from 'path';
import { firstValueFrom } from 'rxjs';
import { restClient } from '../lib/rest/restClient';
import type { SimulatorCliInfo } from '../lib/simulator/cli/cli';
import { firstStreamBlocks, MARKET_SHOWS, RESTING_ORDER, runNode, type Running, substitute, untilUserShows } from '../spec/docs/readmeRun';
import { packInto } from './packedPackage';

const root = path.resolve(__dirname, '..');

const fail = (message: string): never => {
  throw new Error(message);
};

/** Relative link targets of a markdown text, outside fenced blocks and inline code. */
const relativeLinks = (text: string): string[] =>
  [
    ...text
      .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n {0,3}\1[`~]*[ \t]*$/gm, '')
      .replace(/(`+)[^`][\s\S]*?\1/g, '')
      .matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?[^)]*\)/g),
  ]
    .map((m) => m[1] ?? '')
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#') && !t.startsWith('//'));

async function main(): Promise<void> {
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, '.tmp', 'packed-readme-'));
  const running: Running[] = [];
  try {
    // 1. The package as npm would install it.
    const packed = packInto(root, work);
    const pkg = packed.dir;
    console.log(`packed: ${packed.filename}, ${packed.size} bytes (${packed.unpackedSize} unpacked)`);

    // 2. Links and docs/api.
    const guides = ['README.md', ...fs.readdirSync(path.join(pkg, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const dead: string[] = [];
    for (const guide of guides) {
      for (const target of relativeLinks(fs.readFileSync(path.join(pkg, guide), 'utf8'))) {
        const file = path.join(pkg, path.dirname(guide), decodeURI(target.split('#')[0] ?? ''));
        if (!fs.existsSync(file)) dead.push(`${guide}: ${target}`);
      }
    }
    if (dead.length > 0) fail(`dead links in the installed package:\n${dead.join('\n')}`);
    if (fs.existsSync(path.join(pkg, 'docs', 'api'))) fail('docs/api is in the package');
    console.log(`links: every relative link of ${guides.length} installed guides resolves`);

    // 3. The installed command: the guide line, then --json.
    const bin = path.join(pkg, 'bin', 'ex-streams-simulator.js');
    const text = runNode('ex-streams-simulator', [bin, '--port', '0'], { cwd: work });
    running.push(text);
    await text.shows([/^guide: .+$/m], 15_000);
    const guide = /^guide: (.+)$/m.exec(text.stdout())?.[1] ?? '';
    if (path.resolve(guide) !== path.join(pkg, 'docs', 'simulator.md') || !fs.existsSync(guide)) fail(`guide line: ${guide}`);
    // Its exit status on SIGTERM is spec/simulator/cli.spec.ts's subject (a SIGTERM sent the instant the output
    // arrives can beat the bin's signal handlers, which it installs once the output is written).
    await text.stop();
    console.log(`bin: guide: ${path.relative(work, guide)}`);

    const json = runNode('ex-streams-simulator --json', [bin, '--json'], { cwd: work });
    running.push(json);
    await json.shows([/^\{.*\}\n/], 15_000);
    const info = JSON.parse(json.stdout()) as SimulatorCliInfo;

    // 4. The README's blocks as .mjs, plain node, against it.
    const [market = '', user = ''] = firstStreamBlocks(fs.readFileSync(path.join(pkg, 'README.md'), 'utf8'));
    const sim = { port: info.port, baseUrl: info.restClient.baseUrl };
    fs.writeFileSync(path.join(work, 'market.mjs'), substitute(market, sim));
    fs.writeFileSync(path.join(work, 'user.mjs'), substitute(user, sim));
    const m = runNode('market.mjs', ['market.mjs'], { cwd: work });
    running.push(m);
    const u = runNode('user.mjs', ['user.mjs'], { cwd: work, env: { EX_STREAMS_API_KEY: info.restClient.apiKey, EX_STREAMS_SECRET_KEY: info.restClient.secretKey } });
    running.push(u);
    await m.shows(MARKET_SHOWS, 15_000);
    const rest = restClient(info.restClient);
    const place = () => firstValueFrom(rest.request({ method: 'POST', path: '/api/v1/spot/order', security: 'TRADE', body: RESTING_ORDER }));
    if (!(await untilUserShows(u, place))) fail(`user.mjs showed no order event\n${u.stdout()}\n${u.stderr()}`);
    for (const p of [m, u]) {
      const end = await p.stop();
      if (end !== 'SIGTERM' || p.stderr() !== '') fail(`${String(end)}\n${p.stderr()}`);
    }
    console.log('README first streams: market.mjs and user.mjs show data against the installed simulator');

    // 5. The installed recorder, then the simulator serving what it recorded.
    const recorder = runNode('ex-streams record', [path.join(pkg, 'bin', 'ex-streams.js'), 'record', '--url', info.marketStreams.url,
      '--symbols', 'BTCUSDT', '--topics', 'trade,depth', '--out', 'rec', '--duration', '2s'], { cwd: work });
    running.push(recorder);
    const recorded = await new Promise<number | null>((resolve) => recorder.child.on('exit', (code) => resolve(code)));
    const manifest = JSON.parse(fs.readFileSync(path.join(work, 'rec', 'manifest.json'), 'utf8')) as { complete?: boolean; files?: { messages?: number }[] };
    const messages = (manifest.files ?? []).reduce((n, f) => n + (f.messages ?? 0), 0);
    if (recorded !== 0 || manifest.complete !== true || messages === 0) fail(`ex-streams record: exit ${String(recorded)}, ${messages} messages\n${recorder.stderr()}`);
    await json.stop();
    const replay = runNode('ex-streams-simulator --recording', [bin, '--json', '--recording', 'rec'], { cwd: work });
    running.push(replay);
    await replay.shows([/^\{.*\}\n/], 15_000);
    const served = (JSON.parse(replay.stdout()) as SimulatorCliInfo).symbols;
    if (served.join() !== 'BTCUSDT') fail(`ex-streams-simulator --recording serves ${served.join()}`);
    await replay.stop();
    console.log(`ex-streams record: ${messages} messages in a complete recording, served by ex-streams-simulator --recording`);
  } finally {
    for (const p of running) if (!p.exited()) p.child.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => console.log('check-packed-readme: ok'),
  (e: unknown) => {
    console.error(`check-packed-readme: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
