#!/usr/bin/env bash
# The test suite on a fresh or prepared machine: installs what the selected tests need, then runs jest.
#
#   scripts/test.sh                      everything, with the real parts (Docker, Temporal, Postgres, images)
#   scripts/test.sh unit                 test/unit: no services at all
#   scripts/test.sh workflows            test/workflows + test/replay: the Temporal CLI only
#   scripts/test.sh services             test/integration + test/e2e: the real parts
#   scripts/test.sh agents               test/agents: the presets' real CLIs in their sandboxes (as services)
#   scripts/test.sh [TIER] ARGS...       jest arguments (test paths, -t NAME, ...); what is provisioned
#                                        follows the test files they select (jest --listTests)
#
# The tiers are the projects of jest.config.js. Closes with one plain line for CI logs:
# "tests: N passed, N failed, N skipped".
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"

select=()
case "${1:-}" in
  unit | workflows | services | agents) select=(--selectProjects "$1"); shift ;;
  all) shift ;;
esac

jest=(node --experimental-vm-modules node_modules/jest/bin/jest.js)
node_packages_current || bash scripts/ensure-node-deps.sh

# The tiers of the selected test files: "unit", "workflows", "services", one a line.
tiers=$("${jest[@]}" --listTests --json "$@" "${select[@]}" | node -e '
  const path = require("node:path");
  const root = process.argv[1];
  const files = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
  const projects = require(path.join(root, "jest.config.js")).projects.map((p) => ({
    name: p.displayName,
    roots: p.roots.map((r) => path.resolve(r.replace("<rootDir>", root)) + path.sep),
  }));
  const tiers = new Set(files.map((f) => (projects.find((p) => p.roots.some((r) => f.startsWith(r))) ?? { name: "services" }).name));
  console.log([...tiers].join("\n"));
' "$ENVGAP_ROOT")
needs() { grep -qx "$1" <<<"$tiers"; }
step test "tiers selected: $(echo ${tiers:-none} | tr ' ' ',')"

if needs services || needs agents; then
  bash scripts/ensure-node-deps.sh # the CLI (dist/) is run by these tests
  bash scripts/ensure-docker.sh
  bash scripts/ensure-temporal.sh
  bash scripts/ensure-postgres.sh
  bash scripts/ensure-chromium.sh # the report's browser test
  export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:${ENVGAP_PGPORT:-55432}/postgres}"
  # The services tier runs projects in all four languages: their images are built before jest starts,
  # so no test waits on a build inside its own time limit.
  step images "preparing the container images of the four languages"
  node bin/envgap.js setup --languages python,java,javascript,cpp
elif needs workflows; then
  bash scripts/ensure-temporal.sh
fi

# jest only transpiles; a type error anywhere (sources or tests) fails the full run here.
if [ $# -eq 0 ] && [ ${#select[@]} -eq 0 ]; then
  step typecheck "tsc over sources and tests"
  npx tsc -p tsconfig.test.json --noEmit
fi

step test "running jest"
results="$ENVGAP_STATE/jest-results.json"
rm -f "$results"
set +e
# --selectProjects last: it takes every word after it as a project name.
"${jest[@]}" --maxWorkers=2 --json --outputFile="$results" "$@" "${select[@]}"
rc=$?
set -e
# One plain closing line for CI logs: "tests: N passed, N failed, N skipped".
if [ -f "$results" ]; then
  node -e 'const r = require(process.argv[1]); console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`)' "$results"
fi
exit $rc
