#!/usr/bin/env bash
# Installs each fixture site's own npm packages (test/fixtures/sites/<name>/package-lock.json,
# exact versions) under the project's Node 24 into a cache folder outside the clone, one folder
# per site and lockfile hash, so a second run installs nothing. The real-build tests
# (test/features/publishing/siteBuilds.e2e.test.ts) find them through INKSTREAM_SITES_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE_BIN="$PWD/node_modules/node/bin"
CACHE="${INKSTREAM_SITES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/inkstream-sites}"
mkdir -p "$CACHE"
for site in test/fixtures/sites/*/; do
  name=$(basename "$site")
  [ -f "$site/package-lock.json" ] || continue
  hash=$(sha256sum "$site/package-lock.json" | cut -c1-16)
  target="$CACHE/$name-$hash"
  [ -f "$target/.installed" ] && continue
  rm -rf "$target"
  mkdir -p "$target"
  cp "$site/package.json" "$site/package-lock.json" "$target/"
  (cd "$target" && PATH="$NODE_BIN:$PATH" npm ci --no-audit --no-fund)
  touch "$target/.installed"
done
