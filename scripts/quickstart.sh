#!/usr/bin/env bash
# A real study on the local defaults: Docker engine, images, Temporal dev server, and the state folder's
# private Postgres server (started by the CLI; this only makes sure Debian's postgresql is installed).
source "$(dirname "$0")/lib.sh"
cd "$ENVGAP_ROOT"
started=$SECONDS
timed node bash scripts/ensure-node-deps.sh
timed docker bash scripts/ensure-docker.sh
timed temporal bash scripts/ensure-temporal.sh
timed postgres bash scripts/ensure-postgres.sh --install-only
# `quickstart.sh readiness` runs the readiness protocol's corpus instead (docs/readiness.md);
# `quickstart.sh readme` the README diagnosis protocol's recorded answers (docs/readme.md).
study=studies/quickstart.yaml
case ${1:-} in
  readiness) study=studies/readiness.yaml; shift ;;
  readme) study=studies/readme.yaml; shift ;;
esac
# The study prepares its images before any instance starts (shown as it goes, each with its time).
step study "running $study"
set +e
node bin/envgap.js study run "$study" "$@"
rc=$?
set -e
step quickstart "$( [ $rc = 0 ] && echo finished || echo "ended with exit $rc" ) in $((SECONDS - started)) s ($(date -u -d @$((SECONDS - started)) +%M:%S) min:s)"
exit $rc
