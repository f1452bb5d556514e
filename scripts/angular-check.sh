#!/usr/bin/env bash
# Builds and runs the Angular example (docs/examples/angular) against the local simulator in headless Chromium.
#
# Needs, at the repository root: `npm ci` and `npm run build` (dist/ is packed into a tarball, the simulator
# runs from dist/cjs/simulator.js, playwright-core comes from the root node_modules), and /usr/bin/chromium
# (or CHROMIUM_PATH). Steps:
#   1. npm ci in docs/examples/angular (its committed lockfile, which never mentions ex-streams);
#   2. npm pack the root into a temp dir and install the tarball with --no-save (scripts/angular/install-ex-streams.sh);
#      package.json and package-lock.json of the example must come out unchanged;
#   3. ng build (production), which must not mention ws (the browser build of ex-streams never does);
#   4. node scripts/angular/e2e.js: simulator + static server + Chromium, a live book and trades on screen,
#      screenshot to .tmp/angular/angular-app.png, the socket closes when the component is destroyed, 20 quick
#      symbol switches never show one symbol's data under another's name.
# Angular 22's CLI refuses a Node older than ^22.22.3 || ^24.15.0 || >=26: on such a machine steps 1-3 run under a
# pinned Node 24 fetched by npx (an npm package, not in any lockfile); step 4 runs on the machine's Node.
# Exits non-zero with a message naming the failed step. Logs go to .tmp/angular/*.log.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP="$ROOT/docs/examples/angular"
LOGS="$ROOT/.tmp/angular"
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
START=$SECONDS
mkdir -p "$LOGS"

say() { echo "angular-check: $*"; }
fail() { echo "angular-check: FAILED: $*" >&2; exit 1; }
# Runs a step with its output in a log file; on failure shows the end of the log.
run() {
  local name="$1" log="$LOGS/$2.log"; shift 2
  local t0=$SECONDS
  if ! "$@" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    fail "$name (full log: ${log#"$ROOT"/})"
  fi
  say "$name ($((SECONDS - t0)) s)"
}
checksum() { (cd "$APP" && sha256sum package.json package-lock.json); }

[ -f "$ROOT/dist/esm/index.mjs" ] && [ -f "$ROOT/dist/cjs/simulator.js" ] ||
  fail "the root is not built: run 'npm ci && npm run build' at $ROOT first"
[ -f "$ROOT/node_modules/playwright-core/package.json" ] || fail "no playwright-core in $ROOT/node_modules: run 'npm ci' at the root"
[ -x "$CHROMIUM" ] || fail "no Chromium at $CHROMIUM: apt-get install -y chromium (or set CHROMIUM_PATH)"
command -v npm >/dev/null || fail "npm is not on PATH"

export NG_CLI_ANALYTICS=false
# The PATH of the app's steps: the machine's when its Node suits Angular, else one that finds the pinned Node 24
# first (npm, npx and ng start through `#!/usr/bin/env node`).
NG_NODE_PKG="node@24.21.0"
if node -e "const [a, b] = process.versions.node.split('.').map(Number); process.exit((a === 22 && b >= 22) || (a === 24 && b >= 15) || a >= 26 ? 0 : 1)"; then
  NG_PATH="$PATH"
else
  NG_NODE="$(npx --yes "$NG_NODE_PKG" -p process.execPath 2>"$LOGS/ng-node.log")" && [ -x "$NG_NODE" ] ||
    fail "could not fetch $NG_NODE_PKG with npx for Angular's CLI (log: ${LOGS#"$ROOT"/}/ng-node.log)"
  NG_PATH="$(dirname "$NG_NODE"):$PATH"
fi
say "Angular's steps on Node $(PATH="$NG_PATH" node --version)"
BEFORE="$(checksum)"

run "npm ci in docs/examples/angular" npm-ci env PATH="$NG_PATH" bash -c "cd '$APP' && npm ci --no-audit --no-fund"
run "ex-streams installed from an npm pack tarball" install env PATH="$NG_PATH" bash "$ROOT/scripts/angular/install-ex-streams.sh"
[ "$(checksum)" = "$BEFORE" ] || fail "installing the tarball changed docs/examples/angular/package.json or package-lock.json"
# One rxjs: the tarball's peers resolve to the app's own copy (a symlinked install would bring the root's).
[ ! -e "$APP/node_modules/ex-streams/node_modules/rxjs" ] || fail "ex-streams brought its own rxjs (two copies would be bundled)"
run "ng build (production)" ng-build env PATH="$NG_PATH" bash -c "cd '$APP' && ./node_modules/.bin/ng build --configuration production"
[ -f "$APP/dist/browser/index.html" ] || fail "ng build left no dist/browser/index.html"
# The browser build of ex-streams (package.json's "browser" condition) never mentions ws: no warning about it, and
# angular.json needs no allowedCommonJsDependencies.
if grep -nE "['\"]ws['\"]|\bws\b.*(ESM|CommonJS)|(ESM|CommonJS).*\bws\b" "$LOGS/ng-build.log" >&2; then
  fail "ng build mentions ws (above): the app bundled ex-streams' Node build instead of its browser build"
fi
grep -E "Initial total|Initial chunk files" "$LOGS/ng-build.log" | sed 's/^/angular-check: /' || true

say "Chromium run (simulator, static server, headless Chromium)"
node "$ROOT/scripts/angular/e2e.js" "$APP/dist/browser" || fail "the app did not show a live book in Chromium (see above)"
say "OK in $((SECONDS - START)) s"
