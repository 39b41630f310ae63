#!/usr/bin/env bash
# The readiness protocol's GPU stages on a GPU machine (NVIDIA driver, Docker with the NVIDIA runtime,
# and the package indexes reachable for torch): a gpu worker in the background, studies/gpu-check.yaml
# (gpu: required), then the C2-C4 results. `./scripts/gpu-check.sh` prints the pyramid and the stages.
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"
bash scripts/ensure-node-deps.sh
bash scripts/ensure-docker.sh
bash scripts/ensure-temporal.sh
bash scripts/ensure-postgres.sh --install-only
step gpu "nvidia-smi"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
step gpu "a gpu worker (checks the driver and Docker's NVIDIA runtime)"
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
