#!/usr/bin/env bash
# A real study on the embedded defaults: Docker engine, images, Temporal dev server, embedded Postgres.
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"
bash scripts/ensure-node-deps.sh
bash scripts/ensure-docker.sh
bash scripts/ensure-temporal.sh
# The study prepares the images of its languages before any instance starts (shown as it goes).
step study "running studies/quickstart.yaml"
exec node bin/envgap.js study run studies/quickstart.yaml "$@"
