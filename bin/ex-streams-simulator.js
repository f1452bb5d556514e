#!/usr/bin/env node
'use strict';
/*
 * ex-streams-simulator: runs the local exchange simulator until SIGINT/SIGTERM and prints the url of
 * marketStreams, the url of userStream, the restClient baseUrl and credentials (`--json`: one JSON object).
 * `--help` lists every option with its default. The code is lib/simulator/cli.ts.
 *
 * In a clone (lib/ beside this file and ts-node installed) it runs the TypeScript sources, so it always runs
 * what the tree holds; installed from npm it runs the built dist/cjs/simulator.js.
 */
const path = require('node:path');
const fs = require('node:fs');

const root = path.join(__dirname, '..');

function loadCli() {
  const source = path.join(root, 'lib', 'simulator', 'cli.ts');
  if (fs.existsSync(source) && canResolve('ts-node')) {
    require('ts-node').register({
      transpileOnly: true,
      compilerOptions: { module: 'CommonJS', moduleResolution: 'node' },
    });
    return require(source);
  }
  const built = path.join(root, 'dist', 'cjs', 'simulator.js');
  if (fs.existsSync(built)) {
    const mod = require(built);
    if (typeof mod.runSimulatorCli === 'function') return mod;
  }
  throw new Error(`no build found at ${built}: run npm run build (or install ts-node to run the sources)`);
}

function canResolve(id) {
  try {
    require.resolve(id, { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

function guide() {
  const local = path.join(root, 'docs', 'simulator.md');
  return fs.existsSync(local) ? local : undefined;
}

async function main() {
  const { runSimulatorCli } = loadCli();
  const docs = guide();
  // Signals are handled from the start: the addresses are printed before runSimulatorCli resolves, so a
  // script may send SIGTERM before the simulator is handed back; it is stopped as soon as it is.
  let run;
  let stopRequested = false;
  let stopping = false;
  const stop = () => {
    stopRequested = true;
    if (run === undefined || stopping) return;
    stopping = true;
    run.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const result = await runSimulatorCli({
    argv: process.argv.slice(2),
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    ...(docs === undefined ? {} : { docs }),
  });
  if (typeof result === 'number') {
    process.exitCode = result;
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    if (stopRequested) process.exit(result);
    return;
  }
  run = result;
  if (stopRequested) stop();
}

main().catch((e) => {
  process.stderr.write(`ex-streams-simulator: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
