#!/usr/bin/env bash
# The test suite on a fresh or prepared machine: installs what the selected tests need, then runs jest.
#
#   scripts/test.sh                      every tier, one after the other, each under its time limit (CI)
#   scripts/test.sh unit                 test/unit: no services at all
#   scripts/test.sh workflows            test/workflows + test/replay: the Temporal CLI only
#   scripts/test.sh services             test/integration + test/e2e: the real parts
#   scripts/test.sh agents               test/agents: the presets' real CLIs in their sandboxes (as services)
#   scripts/test.sh deploy               test/deploy: the cluster, compose, cold images, CPU torch (Go)
#   scripts/test.sh [TIER] ARGS...       jest arguments (test paths, -t NAME, ...); what is provisioned
#                                        follows the test files they select (jest --listTests)
#
# The tiers are the projects of jest.config.js. ENVGAP_TEST_DEADLINE_S bounds the whole run (.ci/run
# sets it): a tier gets at most what is left, and the closing line is printed whatever happens:
# "tests: N passed, N failed, N skipped; suites: N failed; tiers: unit N s, ..."
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"
started=$SECONDS
TIERS=(unit workflows services agents deploy)
# Each tier's own limit (seconds): about twice what it takes on a busy 2-core machine from cold.
declare -A LIMIT=([unit]=900 [workflows]=900 [services]=3000 [agents]=1800 [deploy]=2400)

select=()
case "${1:-}" in
  unit | workflows | services | agents | deploy) select=("$1"); shift ;;
  all) shift ;;
esac
whole=$([ $# -eq 0 ] && [ ${#select[@]} -eq 0 ] && echo yes || echo no)
chosen=()
[ ${#select[@]} -gt 0 ] && chosen=(--selectProjects "${select[@]}")

jest=(node --experimental-vm-modules node_modules/jest/bin/jest.js)
# Two runs at once (CI beside a person's run) install the packages once: the second waits for the first.
(
  exec 9>"$ENVGAP_STATE/.node-deps.lock"
  flock 9
  node_packages_current || bash scripts/ensure-node-deps.sh
)

# The tiers of the selected test files, one a line.
tiers=$("${jest[@]}" --listTests --json "$@" "${chosen[@]}" | node -e '
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

if needs services || needs agents || needs deploy; then
  (exec 9>"$ENVGAP_STATE/.node-deps.lock"; flock 9; bash scripts/ensure-node-deps.sh) # the CLI (dist/) is run by these tests
  timed docker bash scripts/ensure-docker.sh
  timed temporal bash scripts/ensure-temporal.sh
  timed postgres bash scripts/ensure-postgres.sh
  timed chromium bash scripts/ensure-chromium.sh # the report's browser test
  export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:${ENVGAP_PGPORT:-55432}/postgres}"
  # The services tier runs projects in all four languages: their images are built before jest starts,
  # so no test waits on a build inside its own time limit.
  step images "preparing the container images of the four languages"
  timed images node bin/envgap.js setup --languages python,java,javascript,cpp
elif needs workflows; then
  timed temporal bash scripts/ensure-temporal.sh
fi

# jest only transpiles; a type error anywhere (sources or tests) fails the full run here.
typecheck=0
if [ "$whole" = yes ]; then
  step typecheck "tsc over sources and tests"
  set +e
  timed typecheck npx tsc -p tsconfig.test.json --noEmit
  typecheck=$?
  set -e
fi

summaries=()
rc=0
# This run's own results folder: two runs at once (CI beside a single test file) never read each other's.
results_dir=$(mktemp -d "$ENVGAP_STATE/jest-results.XXXXXX")
trap 'rm -rf "$results_dir"' EXIT
# `run_jest NAME LIMIT ARGS...`: one jest run under its time limit, its results kept for the closing line.
run_jest() {
  local name=$1 limit=$2 t=$SECONDS code
  shift 2
  local results="$results_dir/$name.json"
  step test "running jest: $name (limit $limit s)"
  set +e
  # --selectProjects last: it takes every word after it as a project name.
  timeout --kill-after=30 "$limit" "${jest[@]}" --maxWorkers=2 --json --outputFile="$results" "$@"
  code=$?
  set -e
  if [ $code -eq 124 ] || [ $code -eq 137 ]; then step test "$name: stopped at its time limit of $limit s"; fi
  if [ $code -ne 0 ]; then rc=1; fi
  summaries+=("$name:$results:$((SECONDS - t)):$code")
}

if [ "$whole" = yes ]; then
  for tier in "${TIERS[@]}"; do
    needs "$tier" || continue
    limit=${LIMIT[$tier]}
    if [ -n "${ENVGAP_TEST_DEADLINE_S:-}" ]; then
      left=$((ENVGAP_TEST_DEADLINE_S - (SECONDS - started) - 60))
      if [ "$left" -lt 60 ]; then summaries+=("$tier::0:notime"); rc=1; continue; fi
      [ "$left" -lt "$limit" ] && limit=$left
    fi
    run_jest "$tier" "$limit" --selectProjects "$tier"
  done
else
  limit=${ENVGAP_TEST_LIMIT_S:-7200}
  run_jest "${select[0]:-selected}" "$limit" "$@" "${chosen[@]}"
fi

[ "$typecheck" -eq 0 ] || rc=1
node "$ENVGAP_ROOT/scripts/test-summary.js" "$typecheck" "$((SECONDS - started))" "${summaries[@]}"
# The latest run's results, for a look afterwards (the last run to finish writes them).
for f in "$results_dir"/*.json; do [ -e "$f" ] && cp "$f" "$ENVGAP_STATE/jest-results-$(basename "$f")"; done
exit $rc
