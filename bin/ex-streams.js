#!/usr/bin/env node
'use strict';
/*
 * ex-streams: the library's commands. `ex-streams record --symbols A,B --out DIR [...]` records the public market
 * stream into DIR until --duration or SIGINT/SIGTERM (then stops cleanly: manifest.json complete). `--help` lists
 * the options. The code is lib/node/recordCli.ts.
 *
 * In a clone (lib/ beside this file and ts-node installed) it runs the TypeScript sources; installed from npm it
 * runs the built dist/cjs/node.js.
 */
const path = require('node:path');
const fs = require('node:fs');

const root = path.join(__dirname, '..');
const USAGE = 'Usage: ex-streams record --symbols A,B --out DIR [--topics trade,depth,kline_1m] [--url URL] [--duration 30s]\n' +
  'Run ex-streams record --help for every option.\n';

function loadNode() {
  const source = path.join(root, 'lib', 'node', 'recordCli.ts');
  if (fs.existsSync(source) && canResolve('ts-node')) {
    require('ts-node').register({
      transpileOnly: true,
      compilerOptions: { module: 'CommonJS', moduleResolution: 'node' },
    });
    return require(source);
  }
  const built = path.join(root, 'dist', 'cjs', 'node.js');
  if (fs.existsSync(built)) {
    const mod = require(built);
    if (typeof mod.runRecordCli === 'function') return mod;
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

async function main() {
  const [command, ...argv] = process.argv.slice(2);
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  if (command !== 'record') {
    process.stderr.write(`ex-streams: unknown command '${String(command).slice(0, 40)}'\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { runRecordCli } = loadNode();
  // Signals are handled from the start; a stop asked before the recording is handed back happens once it is.
  let run;
  let stopRequested = false;
  const stop = () => {
    stopRequested = true;
    if (run !== undefined) run.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const result = await runRecordCli({
    argv,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: process.stdout.isTTY === true,
  });
  if (typeof result === 'number') {
    process.exitCode = result;
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    return;
  }
  run = result;
  if (stopRequested) stop();
  await run.finished;
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`ex-streams: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
