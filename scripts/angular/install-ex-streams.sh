#!/usr/bin/env bash
# Installs ex-streams into docs/examples/angular from an `npm pack` tarball of the repository root
# (built dist/ required: run `npm run build` at the root first).
#
# The tarball is installed with --no-save: the example's package.json and package-lock.json never mention
# ex-streams, so the committed lockfile stays valid (`npm ci` keeps accepting it) however often the tarball
# is rebuilt; npm starts from that lockfile, adds ex-streams and its own dependencies (fflate, ws), and writes
# neither file (scripts/angular-check.sh verifies that). A tarball, never a symlink (`file:../..`): a
# symlinked package resolves rxjs from the root's node_modules, and the app would bundle two rxjs.
# Any ex-streams already installed is removed first: a rebuilt tarball has the same name and version, and
# npm would otherwise call the old copy "up to date".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
APP="$ROOT/docs/examples/angular"

if [ ! -f "$ROOT/dist/esm/index.mjs" ] || [ ! -f "$ROOT/dist/types/index.d.ts" ]; then
  echo "install-ex-streams: $ROOT/dist is not built; run 'npm run build' at the repository root first" >&2
  exit 1
fi
if [ ! -d "$APP/node_modules/@angular/core" ]; then
  echo "install-ex-streams: run 'npm ci' in $APP first" >&2
  exit 1
fi

PACK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/ex-streams-pack-XXXXXX")"
trap 'rm -rf "$PACK_DIR"' EXIT

TARBALL="$(cd "$ROOT" && npm pack --silent --ignore-scripts --pack-destination "$PACK_DIR" | tail -n 1)"
if [ -z "$TARBALL" ] || [ ! -f "$PACK_DIR/$TARBALL" ]; then
  echo "install-ex-streams: npm pack produced no tarball in $PACK_DIR" >&2
  exit 1
fi

cd "$APP"
rm -rf node_modules/ex-streams
npm install --no-save --no-audit --no-fund --ignore-scripts "$PACK_DIR/$TARBALL"
node -e "const p=require('ex-streams/package.json');console.log('install-ex-streams: ex-streams '+p.version+' from '+process.argv[1])" "$TARBALL"
