#!/usr/bin/env bash
# The whole test suite on a fresh or prepared machine: installs what is missing, then runs jest.
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"
bash scripts/ensure-node-deps.sh
bash scripts/ensure-docker.sh
bash scripts/ensure-temporal.sh
bash scripts/ensure-postgres.sh
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:${ENVGAP_PGPORT:-55432}/postgres}"
step images "preparing container images"
node bin/envgap.js setup --languages python
step test "running jest"
results="$ENVGAP_STATE/jest-results.json"
rm -f "$results"
set +e
node --experimental-vm-modules node_modules/jest/bin/jest.js --maxWorkers=2 --json --outputFile="$results" "$@"
rc=$?
set -e
# One plain closing line for CI logs: "tests: N passed, N failed, N skipped".
if [ -f "$results" ]; then
  node -e 'const r = require(process.argv[1]); console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`)' "$results"
fi
exit $rc
