#!/usr/bin/env bash
# The device check of the readiness protocol's GPU stages, one command on a GPU machine (the NVIDIA
# driver, Docker with the NVIDIA Container Toolkit, the package index reachable for torch; no Temporal,
# no Postgres). Each stage is asserted: nvidia-smi answers; a sandbox with a device request sees the
# GPUs; /dev/shm is as configured; the generic C3 kernel check; the generic C4 all-reduce over every GPU
# with NCCL (skipped, with the reason, under 2 GPUs). Prints a verdict table (stage, verdict, detail) and
# exits 1 when an asserted stage failed. Code: src/deviceCheck/.
#   scripts/gpu-check.sh [--cpu] [--shm-mb N] [--torch REQUIREMENT] [--timeout-s N]
#     --cpu         a machine without a GPU: the same stages on the CPU and gloo, the GPU ones skipped
#     --shm-mb N    /dev/shm of the probes' sandboxes (default: the readiness protocol's, within memory)
#     --torch REQ   the environment's torch (default torch==2.5.1, from the package index)
#   scripts/gpu-check.sh --study
#     the whole workflow instead: a gpu worker, studies/gpu-check.yaml (Temporal and Postgres), C2-C4.
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"

study() {
  bash scripts/ensure-node-deps.sh
  bash scripts/ensure-docker.sh
  bash scripts/ensure-temporal.sh
  bash scripts/ensure-postgres.sh --install-only
  step gpu "a gpu worker (checks the driver and a container with a device request)"
  node bin/envgap.js worker --queue gpu &
  worker=$!
  trap 'kill $worker 2>/dev/null' EXIT
  sleep 5
  kill -0 $worker || { echo "the gpu worker did not start (see above)" >&2; exit 1; }
  step gpu "studies/gpu-check.yaml"
  node bin/envgap.js study run studies/gpu-check.yaml
  node -e '
const { openDb } = require("./dist/src/cli/context.js");
const { loadSettings } = require("./dist/src/infra/settings.js");
const { readinessRecords } = require("./dist/src/db/readiness.js");
(async () => {
  const db = await openDb(loadSettings());
  for (const r of await readinessRecords(db, "gpu-check")) {
    console.log(`gpu: ${JSON.stringify(r.gpu)}`);
    for (const s of ["c2", "c3", "c4"]) console.log(`${s}: ${JSON.stringify(r.stages[s])}`);
  }
  await db.destroy();
})();
'
}
if [ "${1:-}" = --study ]; then study; exit; fi

node_packages_current || bash scripts/ensure-node-deps.sh
bash scripts/ensure-docker.sh
# Compiled into a folder of its own: dist/ may be in use by a running worker or study.
build=.envgap/device-check
src_hash=$(find src migrations tsconfig.json -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
if [ "$(cat "$build/.envgap-src" 2>/dev/null)" != "$src_hash" ]; then
  step build "compiling TypeScript into $build"
  rm -rf "$build" && npx tsc -p tsconfig.json --outDir "$build"
  echo "$src_hash" > "$build/.envgap-src"
fi
exec node "$build/src/deviceCheck/main.js" "$@"
