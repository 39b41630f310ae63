#!/usr/bin/env bash
# envgap's deployment with containers on this machine: deploy/compose/docker-compose.yaml, its images
# built here from envgap's own Debian base image (no registry is needed), tagged by what they are made of.
#
#   deploy/compose.sh up [--gpu]   builds what is missing, starts it, waits until Temporal answers;
#                                  ends with the `export TEMPORAL_ADDRESS=...` and `export DATABASE_URL=...` lines
#   deploy/compose.sh status       the services as docker-compose sees them
#   deploy/compose.sh down [--purge]   stops it; --purge removes the databases' volumes and the state folder
#
# ENVGAP_COMPOSE_PORT_BASE (19200; the cluster of local-cluster.sh takes 16233-18233): Temporal +33, UI +1033, its Postgres +432, results Postgres +433.
# ENVGAP_COMPOSE_STATE (/var/lib/envgap/compose): the workers' state, the same path inside and out.
# ENVGAP_COMPOSE_PROJECT (envgap): the compose project name. ENVGAP_COMPOSE_DATA (the repository):
# a folder mounted read-only at its own path in the workers, for the replay corpora and data sets
# that study files name by absolute path. Worker secrets: deploy/compose/worker.env (not committed).
source "$(dirname "$0")/../scripts/lib.sh"
cd "$ENVGAP_ROOT"
BASE_PORT="${ENVGAP_COMPOSE_PORT_BASE:-19200}"
export ENVGAP_COMPOSE_FRONTEND_PORT=$((BASE_PORT + 33)) ENVGAP_COMPOSE_UI_PORT=$((BASE_PORT + 1033))
export ENVGAP_COMPOSE_TEMPORAL_DB_PORT=$((BASE_PORT + 432)) ENVGAP_COMPOSE_RESULTS_DB_PORT=$((BASE_PORT + 433))
export ENVGAP_COMPOSE_STATE="${ENVGAP_COMPOSE_STATE:-/var/lib/envgap/compose}"
export ENVGAP_COMPOSE_DATA="${ENVGAP_COMPOSE_DATA:-$ENVGAP_ROOT}"
project="${ENVGAP_COMPOSE_PROJECT:-envgap}"
address="127.0.0.1:$ENVGAP_COMPOSE_FRONTEND_PORT"
database_url="postgres://postgres@127.0.0.1:$ENVGAP_COMPOSE_RESULTS_DB_PORT/envgap"
compose() { docker-compose -p "$project" -f deploy/compose/docker-compose.yaml "$@"; }

# build_image NAME CONTEXT: envgap/deploy-NAME:$ENVGAP_COMPOSE_TAG unless it exists.
build_image() {
  local name=$1 context=$2 ref="envgap/deploy-$1:$ENVGAP_COMPOSE_TAG"
  if docker image inspect "$ref" >/dev/null 2>&1; then step compose "image $ref exists"; return; fi
  step compose "building $ref"
  docker build -q --build-arg BASE="$base" -t "$ref" "$context" >/dev/null
}

images() {
  bash scripts/ensure-docker.sh
  have docker-compose || { step compose "installing Debian's docker-compose"; apt_install docker-compose; }
  bash scripts/ensure-node-deps.sh
  local bin; bin=$(bash deploy/build-temporal.sh | tail -1)
  bash scripts/ensure-temporal.sh >/dev/null
  base=$(node bin/envgap.js setup --base-only | tail -1)
  # The tag: the base, the Temporal build, envgap's compiled code and packages, and these files.
  export ENVGAP_COMPOSE_TAG
  ENVGAP_COMPOSE_TAG=$( { echo "$base $bin"; node -e "console.log(require('./dist/src/workers/bundle').workflowBuildId())"; sha256sum package-lock.json deploy/compose/*/* deploy/temporal/* deploy/ui/* /usr/bin/node | cut -c1-64; } | sha256sum | cut -c1-12)
  local stage; stage=$(mktemp -d)
  trap 'rm -rf "$stage"' RETURN
  cp -r deploy/compose/postgres "$stage/postgres"
  build_image postgres "$stage/postgres"
  if ! docker image inspect "envgap/deploy-temporal:$ENVGAP_COMPOSE_TAG" >/dev/null 2>&1; then
    mkdir -p "$stage/temporal/bin"
    cp deploy/compose/temporal/* "$stage/temporal/" 2>/dev/null || true
    cp -r "$bin/temporal-server" "$bin/temporal-sql-tool" "$bin/schema" "$ENVGAP_HOME/bin/temporal" "$stage/temporal/bin/"
    cp deploy/temporal/config.yaml.tmpl deploy/temporal/dynamicconfig.yaml "$stage/temporal/"
  fi
  build_image temporal "$stage/temporal"
  if ! docker image inspect "envgap/deploy-temporal-ui:$ENVGAP_COMPOSE_TAG" >/dev/null 2>&1; then
    mkdir -p "$stage/ui"
    cp deploy/compose/ui/* "$bin/temporal-ui-server" deploy/ui/config.yaml.tmpl "$stage/ui/"
  fi
  build_image temporal-ui "$stage/ui"
  if ! docker image inspect "envgap/deploy-worker:$ENVGAP_COMPOSE_TAG" >/dev/null 2>&1; then
    step compose "staging the application with its production packages (npm ci --omit=dev)"
    mkdir -p "$stage/worker/app"
    cp deploy/compose/worker/Dockerfile "$stage/worker/"
    cp /usr/bin/node "$stage/worker/node"
    cp -r bin dist package.json package-lock.json catalog "$stage/worker/app/"
    (cd "$stage/worker/app" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
  fi
  build_image worker "$stage/worker"
  [ -f deploy/compose/worker.env ] || : > deploy/compose/worker.env
}

case "${1:-}" in
  up)
    images
    mkdir -p "$ENVGAP_COMPOSE_STATE"
    step compose "starting project $project"
    compose $([ "${2:-}" = --gpu ] && echo --profile gpu) up -d
    wait_for "Temporal's default namespace on $address" 600 namespace_ready "$ENVGAP_HOME/bin/temporal" "$address" || { compose logs --tail 30 temporal >&2; exit 1; }
    step compose "up: Temporal $address, UI http://127.0.0.1:$ENVGAP_COMPOSE_UI_PORT, results $database_url"
    echo "export TEMPORAL_ADDRESS=$address"
    echo "export DATABASE_URL=$database_url"
    ;;
  status)
    export ENVGAP_COMPOSE_TAG=unused
    compose ps
    ;;
  down)
    export ENVGAP_COMPOSE_TAG=unused
    compose --profile gpu down $([ "${2:-}" = --purge ] && echo -v)
    if [ "${2:-}" = --purge ]; then
      awk -v p="$ENVGAP_COMPOSE_STATE/" 'index($2, p) == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
      rm -rf "$ENVGAP_COMPOSE_STATE"; step compose "removed the volumes and $ENVGAP_COMPOSE_STATE"
    fi
    ;;
  *) echo "usage: deploy/compose.sh up [--gpu] | status | down [--purge]" >&2; exit 2 ;;
esac
