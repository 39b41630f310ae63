#!/usr/bin/env bash
# npm packages and the TypeScript build, skipped when nothing changed.
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"
# One install and one build at a time per checkout: a quickstart beside a test run (or two of either)
# would otherwise run npm ci over each other, or leave dist/ empty under a CLI that a test is starting.
exec 8>"$ENVGAP_ROOT/.envgap-node-deps.lock"
flock 8
lock_hash=$(sha256sum package.json package-lock.json 2>/dev/null | sha256sum | cut -c1-16)
if [ ! -d node_modules ] || [ "$(cat node_modules/.envgap-lock 2>/dev/null)" != "$lock_hash" ]; then
  step node "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
  echo "$lock_hash" > node_modules/.envgap-lock
else
  step node "npm packages up to date"
fi
src_hash=$(find src migrations tsconfig.json -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
if [ ! -d dist ] || [ "$(cat dist/.envgap-src 2>/dev/null)" != "$src_hash" ]; then
  step build "compiling TypeScript"
  # Built beside dist/ and swapped in, so dist/ is never half-written while something runs from it.
  rm -rf dist.next dist.old && npx tsc -p tsconfig.json --outDir dist.next
  echo "$src_hash" > dist.next/.envgap-src
  if [ -d dist ]; then mv dist dist.old; fi
  mv dist.next dist && rm -rf dist.old
else
  step build "build up to date"
fi
