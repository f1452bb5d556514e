'use strict';
/*
 * What the bins share: the package's root, and how a command's code is loaded. In a clone (the TypeScript source
 * beside the bin and ts-node installed) it runs the sources, so a command always runs what the tree holds;
 * installed from npm it runs the built dist/cjs module.
 */
const path = require('node:path');
const fs = require('node:fs');

const root = path.join(__dirname, '..');

/**
 * The module of a command: `source` (a .ts file, relative to the root) through ts-node when it is there and ts-node
 * resolves, else `built` (relative to the root) once it exports the function `entry`.
 */
function loadCommand(source, built, entry) {
  const sourcePath = path.join(root, source);
  if (fs.existsSync(sourcePath) && canResolve('ts-node')) {
    require('ts-node').register({
      transpileOnly: true,
      compilerOptions: { module: 'CommonJS', moduleResolution: 'node' },
    });
    return require(sourcePath);
  }
  const builtPath = path.join(root, built);
  if (fs.existsSync(builtPath)) {
    const mod = require(builtPath);
    if (typeof mod[entry] === 'function') return mod;
  }
  throw new Error(`no build found at ${builtPath}: run npm run build (or install ts-node to run the sources)`);
}

function canResolve(id) {
  try {
    require.resolve(id, { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

module.exports = { root, loadCommand };
