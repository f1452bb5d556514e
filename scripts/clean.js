// Removes build output before a build (portable `rm -rf dist`).
require('node:fs').rmSync(require('node:path').join(__dirname, '..', 'dist'), { recursive: true, force: true });
