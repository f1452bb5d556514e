// `prepare` (package.json) is `node scripts/own-install.js || npm run build`: npm runs `prepare` when it packs this
// package (`npm pack`, `npm publish`) and when it installs it from its sources elsewhere (`npm install <path to a
// clone>`, with or without --install-links; `npm install <git url>`), and there dist/ must be built. It also runs
// it for the repository's own `npm install` / `npm ci`, where a ~30 s build is not wanted: CI builds in its own step
// (.ci/run) and a work-in-progress type error must not break an install. This exits 0 (skip the build) for that
// case only: `npm_command` is install or ci and npm was run in this directory (`INIT_CWD`). Anything else, an
// unknown client included, exits 1: build.
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const command = process.env.npm_command;
const ranHere = process.env.INIT_CWD !== undefined && path.resolve(process.env.INIT_CWD) === root;
process.exit((command === 'install' || command === 'ci') && ranHere ? 0 : 1);
