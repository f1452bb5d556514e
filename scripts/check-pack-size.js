#!/usr/bin/env node
'use strict';
/*
 * The package stays light (CI, after `npm run build`): what `npm pack --dry-run --json` would publish is at most
 * MAX_UNPACKED_BYTES unpacked, holds no source map, one declaration file per entry and condition (`.d.ts`, and a
 * one-line `.d.mts` re-exporting it per entry: the shared type chunks only as `.d.ts`), and no install-time script
 * (`preinstall`, `install`, `postinstall`, `prepare`: npm warns about them when the package is installed from a
 * file or a git URL).
 *
 * With `--install`, it also packs the tarball and installs it (and its peer dependencies, from the registry) into a
 * fresh project in the system's temporary folder, as a user would, and fails when npm prints a warning.
 *
 *   node scripts/check-pack-size.js [--install]
 */
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** 5 MB, as npm counts it (bytes of the files, unpacked). */
const MAX_UNPACKED_BYTES = 5_000_000;
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

const root = path.resolve(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const [packed] = JSON.parse(out);
if (packed === undefined) throw new Error('npm pack printed nothing');
const files = packed.files.map((f) => f.path);
const pkg = require(path.join(root, 'package.json'));

const problems = [];
if (packed.unpackedSize > MAX_UNPACKED_BYTES) problems.push(`${packed.unpackedSize} bytes unpacked, more than ${MAX_UNPACKED_BYTES}`);
const maps = files.filter((f) => f.endsWith('.map'));
if (maps.length > 0) problems.push(`source maps packed: ${maps.join(', ')}`);
const chunkMts = files.filter((f) => /^dist\/types\/chunks\/.*\.d\.mts$/.test(f));
if (chunkMts.length > 0) problems.push(`type chunks declared twice (.d.mts): ${chunkMts.join(', ')}`);
const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json').map((k) => (k === '.' ? 'index' : k.slice(2)));
for (const entry of entries) {
  for (const file of [`dist/types/${entry}.d.ts`, `dist/types/${entry}.d.mts`]) {
    if (!files.includes(file)) problems.push(`${file} not packed`);
  }
}
const scripts = INSTALL_SCRIPTS.filter((s) => pkg.scripts?.[s] !== undefined);
if (scripts.length > 0) problems.push(`install-time scripts in package.json: ${scripts.join(', ')}`);

if (process.argv.includes('--install') && problems.length === 0) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ex-streams-install-'));
  try {
    const tarball = execFileSync(npm, ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop();
    const app = path.join(work, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    const install = spawnSync(npm, ['install', path.join(work, tarball), 'rxjs@7', 'io-ts@2', 'fp-ts@2', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8' });
    const said = `${install.stdout}\n${install.stderr}`;
    if (install.status !== 0) problems.push(`npm install of the tarball failed:\n${said}`);
    const warnings = said.split('\n').filter((line) => /^npm warn/i.test(line));
    if (warnings.length > 0) problems.push(`npm warns when the tarball is installed:\n${warnings.join('\n')}`);
    else console.log(`installed ${tarball} into a fresh project: no npm warning`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

console.log(`packed: ${files.length} files, ${packed.unpackedSize} bytes unpacked (${packed.size} packed); bound ${MAX_UNPACKED_BYTES}`);
if (problems.length > 0) {
  console.error(problems.map((p) => `- ${p}`).join('\n'));
  process.exit(1);
}
