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
const { loadCommand } = require('./load');

const USAGE = 'Usage: ex-streams record --symbols A,B --out DIR [--topics trade,depth,kline_1m] [--url URL] [--duration 30s]\n' +
  'Run ex-streams record --help for every option.\n';

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
  const { runRecordCli } = loadCommand('lib/node/recordCli.ts', 'dist/cjs/node.js', 'runRecordCli');
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
