#!/usr/bin/env node
'use strict';
/*
 * The API reports: one per entry of package.json's `exports` (`.` is api/index.api.md, `./orders` is
 * api/orders.api.md, ...), made by @microsoft/api-extractor from the built types (api-extractor.json), so every change
 * to the public surface is a diff of a checked-in file that a review reads.
 *
 *   npm run api:check     (after `npm run build`) fails when a built entry's surface differs from its report
 *   npm run api:update    (after `npm run build`) writes the reports of the built surface: commit the reviewed diff
 */
const fs = require('node:fs');
const path = require('node:path');
const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');

const root = path.resolve(__dirname, '..');
const update = process.argv.includes('--update');
const configPath = path.join(root, 'api-extractor.json');
const packageJsonFullPath = path.join(root, 'package.json');

/** The entries, by the name of their built types: `index`, `codecs`, `orders`, ... */
const entries = Object.keys(require(packageJsonFullPath).exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'index' : key.slice(2)));

const reportsDir = path.join(root, 'api');
const expected = new Set(entries.map((entry) => `${entry}.api.md`));
const strays = fs.existsSync(reportsDir) ? fs.readdirSync(reportsDir).filter((f) => f.endsWith('.api.md') && !expected.has(f)) : [];

fs.mkdirSync(reportsDir, { recursive: true });
fs.mkdirSync(path.join(root, '.tmp', 'api'), { recursive: true });
const failed = [];
for (const entry of entries) {
  const typesFile = path.join(root, 'dist', 'types', `${entry}.d.ts`);
  if (!fs.existsSync(typesFile)) throw new Error(`${path.relative(root, typesFile)} is missing: run npm run build first`);
  const configObject = ExtractorConfig.loadFile(configPath);
  configObject.mainEntryPointFilePath = `<projectFolder>/dist/types/${entry}.d.ts`;
  configObject.compiler.overrideTsconfig.files = [`dist/types/${entry}.d.ts`];
  configObject.apiReport.reportFileName = entry;
  const config = ExtractorConfig.prepare({ configObject, configObjectFullPath: configPath, packageJsonFullPath });
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (message) => {
      // "You have changed the public API signature" is told below, once per entry, with the diff command.
      if (['console-api-report-changed', 'console-api-report-not-copied', 'console-compiler-version-notice'].includes(message.messageId)) {
        message.handled = true;
      }
    },
  });
  if (!result.succeeded || (!update && result.apiReportChanged)) failed.push(entry);
  else if (update && result.apiReportChanged) console.log(`api/${entry}.api.md: updated`);
}

if (update) {
  for (const stray of strays) {
    fs.rmSync(path.join(reportsDir, stray));
    console.log(`api/${stray}: removed (no such entry)`);
  }
} else if (strays.length > 0) {
  console.error(`API reports of no entry: ${strays.map((f) => `api/${f}`).join(', ')} (npm run api:update removes them)`);
  failed.push(...strays);
}

if (failed.length > 0) {
  console.error(
    `The public API differs from its report for: ${failed.join(', ')}.\n` +
      'Compare: diff api/<entry>.api.md .tmp/api/<entry>.api.md. If the change is meant, run npm run api:update and commit api/.',
  );
  process.exit(1);
}
console.log(`API reports: ${entries.length} entries ${update ? 'written' : 'match the built types'}.`);
