#!/usr/bin/env node
'use strict';
/*
 * ex-streams-simulator: runs the local exchange simulator until SIGINT/SIGTERM and prints the url of
 * marketStreams, the url of userStream, the restClient baseUrl and credentials (`--json`: one JSON object).
 * `--help` lists every option with its default. The code is lib/simulator/cli/cli.ts.
 *
 * In a clone (lib/ beside this file and ts-node installed) it runs the TypeScript sources, so it always runs
 * what the tree holds; installed from npm it runs the built dist/cjs/simulator.js.
 */
const path = require('node:path');
const fs = require('node:fs');
const { loadCommand } = require('./load');

const root = path.join(__dirname, '..');

function guide() {
  const local = path.join(root, 'docs', 'simulator.md');
  return fs.existsSync(local) ? local : undefined;
}

async function main() {
  const { runSimulatorCli } = loadCommand('lib/simulator/cli/cli.ts', 'dist/cjs/simulator.js', 'runSimulatorCli');
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
