#!/usr/bin/env bash
# A real study on the local defaults: Docker engine, images, Temporal dev server, and the state folder's
# private Postgres server (started by the CLI; this only makes sure Debian's postgresql is installed).
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"
bash scripts/ensure-node-deps.sh
bash scripts/ensure-docker.sh
bash scripts/ensure-temporal.sh
bash scripts/ensure-postgres.sh --install-only
# `quickstart.sh readiness` runs the readiness protocol's corpus instead (docs/readiness.md);
# `quickstart.sh readme` the README diagnosis protocol's recorded answers (docs/readme.md).
study=studies/quickstart.yaml
case ${1:-} in
  readiness) study=studies/readiness.yaml; shift ;;
  readme) study=studies/readme.yaml; shift ;;
esac
# The study prepares its images before any instance starts (shown as it goes).
step study "running $study"
exec node bin/envgap.js study run "$study" "$@"
