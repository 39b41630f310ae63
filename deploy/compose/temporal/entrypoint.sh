#!/bin/bash
# Waits for Postgres, sets up or updates both schemas with Temporal's SQL tool (idempotent), renders
# the server's configuration, registers the `default` namespace once the server answers.
set -euo pipefail
cd /opt/temporal
: "${PGHOST:?}" "${PGPORT:=5432}" "${PGUSER:=postgres}" "${PGPASSWORD:=}"
tool() { ./temporal-sql-tool --plugin postgres12 --ep "$PGHOST" -p "$PGPORT" -u "$PGUSER" --pw "$PGPASSWORD" --db "$1" "${@:2}"; }
for _ in $(seq 60); do tool temporal create-database >/dev/null 2>&1 && break; sleep 1; done
tool temporal_visibility create-database >/dev/null 2>&1 || true
for db in temporal temporal_visibility; do
  dir=schema/postgresql/v12/$([ $db = temporal ] && echo temporal || echo visibility)
  tool $db setup-schema -v 0.0 >/dev/null 2>&1 || true
  tool $db update-schema -d "$dir/versioned"
done
ip=$(hostname -i | awk '{print $1}')
text=$(cat config.yaml.tmpl)
for kv in PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER="$PGUSER" PGPASSWORD="$PGPASSWORD" BROADCAST="$ip" BIND=0.0.0.0 \
  PORT_FRONTEND=7233 PORT_FRONTEND_MEMBERSHIP=6933 PORT_HTTP=7243 PORT_MATCHING=7235 PORT_MATCHING_MEMBERSHIP=6935 \
  PORT_HISTORY=7234 PORT_HISTORY_MEMBERSHIP=6934 PORT_WORKER=7239 PORT_WORKER_MEMBERSHIP=6939 DYNAMIC_CONFIG=/opt/temporal/dynamicconfig.yaml; do
  text=${text//@${kv%%=*}@/${kv#*=}}
done
printf '%s\n' "$text" > config.yaml
( for _ in $(seq 120); do
    if ./temporal operator cluster health --address 127.0.0.1:7233 >/dev/null 2>&1; then
      ./temporal operator namespace describe --namespace default --address 127.0.0.1:7233 >/dev/null 2>&1 \
        || ./temporal operator namespace create --namespace default --retention 30d --address 127.0.0.1:7233
      exit 0
    fi
    sleep 1
  done ) &
exec ./temporal-server --config-file config.yaml --allow-no-auth start
