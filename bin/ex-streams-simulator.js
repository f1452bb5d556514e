#!/usr/bin/env node
'use strict';
/*
 * ex-streams-simulator: runs the local exchange simulator until SIGINT/SIGTERM.
 *   npx ex-streams-simulator --port 8080 --symbols BTCUSDT,ETHUSDT --seed 1 [--two-factor] [--batch-private-events]
 *     [--host H] [--control-token T]
 * Beyond loopback (--host other than 127.0.0.1, ::1, localhost) the control routes require a token: the one
 * given by --control-token or EX_STREAMS_SIM_CONTROL_TOKEN, else a random one; it is printed at start.
 * Loads the built dist/cjs/simulator.js; falls back to the TypeScript sources through ts-node when dist is absent.
 */
const path = require('node:path');
const fs = require('node:fs');

function loadSimulator() {
  const built = path.join(__dirname, '..', 'dist', 'cjs', 'simulator.js');
  if (fs.existsSync(built)) {
    const mod = require(built);
    if (typeof mod.startSimulator === 'function') return mod;
  }
  require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'CommonJS', moduleResolution: 'node' } });
  return require(path.join(__dirname, '..', 'lib', 'simulator', 'index.ts'));
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--port': options.port = Number(value()); break;
      case '--host': options.host = value(); break;
      case '--symbols': options.symbols = value().split(',').map((s) => s.trim()).filter(Boolean); break;
      case '--seed': options.seed = Number(value()); break;
      case '--api-key': options.apiKey = value(); break;
      case '--secret-key': options.secretKey = value(); break;
      case '--control-token': options.controlToken = value(); break;
      case '--two-factor': options.twoFactor = true; break;
      case '--batch-private-events': options.batchPrivateEvents = true; break;
      case '--help': case '-h':
        process.stdout.write('Usage: ex-streams-simulator [--port N] [--host H] [--symbols A,B] [--seed N] [--api-key K] [--secret-key S] [--two-factor] [--batch-private-events] [--control-token T]\n');
        process.exit(0);
        break;
      default: throw new Error(`Unknown option ${arg}`);
    }
  }
  const envToken = process.env.EX_STREAMS_SIM_CONTROL_TOKEN;
  if (options.controlToken === undefined && envToken !== undefined && envToken !== '') options.controlToken = envToken;
  return options;
}

async function main() {
  const { startSimulator } = loadSimulator();
  const sim = await startSimulator(parseArgs(process.argv.slice(2)));
  process.stdout.write(
    [
      'ex-streams simulator running',
      `  baseUrl:          ${sim.baseUrl}`,
      `  publicStreamUrl:  ${sim.publicStreamUrl}`,
      `  privateStreamUrl: ${sim.privateStreamUrl}/{listenKey}`,
      `  apiKey:           ${sim.apiKey}`,
      `  secretKey:        ${sim.secretKey}`,
      `  control:          POST ${sim.baseUrl}/__control/<name> (see docs/simulator.md)`,
      sim.controlToken === undefined
        ? '  controlToken:     none (loopback only)'
        : `  controlToken:     ${sim.controlToken} (header X-SIM-CONTROL-TOKEN or Authorization: Bearer)`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  process.stderr.write(`ex-streams-simulator: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
