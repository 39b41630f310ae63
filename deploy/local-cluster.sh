#!/usr/bin/env bash
# The deployment of deploy/ on this one machine, as a lab would run it on several: the real Temporal
# server on Postgres (its schema set up by Temporal's SQL tool), the Web UI, the results database, and
# two envgap worker processes, each with a state folder of its own.
#
#   deploy/local-cluster.sh up       idempotent; ends with `export TEMPORAL_ADDRESS=...` and
#                                    `export DATABASE_URL=...` lines (eval "$(deploy/local-cluster.sh up | tail -2)")
#   deploy/local-cluster.sh status   what runs, and where
#   deploy/local-cluster.sh restart-server   stops the Temporal server and starts it again (a server restart mid-study)
#   deploy/local-cluster.sh down     stops it all (the databases' data stay; `down --purge` removes them)
#
# Ports: Postgres ENVGAP_CLUSTER_PGPORT=55433; the server's from ENVGAP_CLUSTER_PORT_BASE=17200
# (frontend gRPC base+33, HTTP base+43, history +34, matching +35, worker +39, their membership ports
# 1000 lower), the UI base+1033. Workers: ENVGAP_CLUSTER_WORKERS=2. Postgres data: ENVGAP_CLUSTER_PGDATA.
#
# Network namespaces (ENVGAP_CLUSTER_NETNS=on, the default as root with `ip netns`): each worker runs
# in a network namespace of its own on a bridge of the cluster's (10.251.N.0/24, the host at .1), and
# the server and Postgres listen on the bridge address only, so a worker reaches the cluster through
# its address and nothing else, as a second machine would. The workers enter only the network
# namespace (nsenter --net), keeping the host's mount and pid view that Docker needs; they program
# the sandbox firewall in Docker's namespace. Nothing else outside is reachable from theirs (no NAT):
# agents that call an API from the worker need ENVGAP_CLUSTER_NETNS=off.
source "$(dirname "$0")/../scripts/lib.sh"
cd "$ENVGAP_ROOT"
state="$ENVGAP_STATE/cluster"
PGPORT="${ENVGAP_CLUSTER_PGPORT:-55433}"
BASE="${ENVGAP_CLUSTER_PORT_BASE:-17200}"
FRONTEND_PORT=$((BASE + 33))
UI_PORT=$((BASE + 1033))
WORKERS="${ENVGAP_CLUSTER_WORKERS:-2}"
if [ -n "${ENVGAP_CLUSTER_PGDATA:-}" ]; then pgdata=$ENVGAP_CLUSTER_PGDATA; elif [ "$(id -u)" = 0 ]; then pgdata=/var/lib/envgap/cluster-pg; else pgdata="$state/pg"; fi
NETNS="${ENVGAP_CLUSTER_NETNS:-}"
if [ -z "$NETNS" ]; then if [ "$(id -u)" = 0 ] && ip netns list >/dev/null 2>&1 && have nsenter; then NETNS=on; else NETNS=off; fi; fi
BRIDGE="egc$BASE"
NET_PREFIX="10.251.$(( (BASE / 100) % 250 ))"
if [ "$NETNS" = on ]; then HOST_IP="$NET_PREFIX.1"; else HOST_IP=127.0.0.1; fi
netns_of() { echo "envgap-$BASE-w$1"; }
address="$HOST_IP:$FRONTEND_PORT"
database_url="postgres://postgres@$HOST_IP:$PGPORT/envgap"
mkdir -p "$state"

# A killed process whose parent does not reap it stays a zombie, which kill -0 still finds: not running.
running() { [ -f "$state/$1.pid" ] && kill -0 "$(cat "$state/$1.pid")" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$(cat "$state/$1.pid")/stat" 2>/dev/null)" != Z ]; }
pg_up() { "${as_postgres[@]}" "$(postgres_bindir)/pg_isready" -h 127.0.0.1 -p "$PGPORT" -q; }
psql_c() { "${as_postgres[@]}" "$(postgres_bindir)/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -tAc "$1" postgres; }
temporal_cli() { "$ENVGAP_HOME/bin/temporal" "$@" --address "$address"; }
render() { # render TEMPLATE OUT KEY=VALUE...
  local tmpl=$1 out=$2; shift 2
  local text; text=$(cat "$tmpl")
  for kv in "$@"; do text=${text//@${kv%%=*}@/${kv#*=}}; done
  printf '%s\n' "$text" > "$out"
}

start_postgres() {
  bash scripts/ensure-postgres.sh --install-only
  local pgbin; pgbin=$(postgres_bindir)
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    step cluster "initialising the cluster's Postgres in $pgdata"
    mkdir -p "$pgdata"; [ "$(id -u)" = 0 ] && chown postgres "$pgdata"
    "${as_postgres[@]}" "$pgbin/initdb" -D "$pgdata" -A trust -U postgres >/dev/null
  fi
  if pg_up; then step cluster "Postgres answers on 127.0.0.1:$PGPORT"; return; fi
  require_free_ports "the cluster's Postgres (ENVGAP_CLUSTER_PGPORT)" "127.0.0.1:$PGPORT" || exit 1
  step cluster "starting Postgres on 127.0.0.1:$PGPORT (log: $pgdata/server.log)"
  local listen=127.0.0.1
  if [ "$NETNS" = on ]; then
    listen="127.0.0.1,$HOST_IP"
    grep -q "$NET_PREFIX.0/24" "$pgdata/pg_hba.conf" || echo "host all all $NET_PREFIX.0/24 trust" >> "$pgdata/pg_hba.conf"
  fi
  detached "$state/pg_ctl.log" "${as_postgres[@]}" "$pgbin/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -o "-p $PGPORT -k /tmp -c listen_addresses=$listen -c max_connections=300" -w start
}

# Temporal's own SQL tool creates both databases and applies every versioned schema step; both are idempotent.
setup_schema() {
  local bin=$1
  for db in temporal temporal_visibility; do
    local schema="$bin/schema/postgresql/v12/$([ $db = temporal ] && echo temporal || echo visibility)"
    local tool=("$bin/temporal-sql-tool" --plugin postgres12 --ep 127.0.0.1 -p "$PGPORT" -u postgres --db "$db")
    if [ "$(psql_c "select 1 from pg_database where datname = '$db'")" != 1 ]; then
      step cluster "creating the $db database"
      "${tool[@]}" create-database >>"$state/schema.log" 2>&1 || { tail -20 "$state/schema.log" >&2; exit 1; }
    fi
    if [ "$(psql_c "select 1" 2>/dev/null)" = 1 ] && ! "${as_postgres[@]}" "$(postgres_bindir)/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -tAc "select 1 from schema_version limit 1" "$db" >/dev/null 2>&1; then
      step cluster "setting up the $db schema (temporal-sql-tool setup-schema)"
      "${tool[@]}" setup-schema -v 0.0 >>"$state/schema.log" 2>&1 || { tail -20 "$state/schema.log" >&2; exit 1; }
    fi
    step cluster "updating the $db schema (temporal-sql-tool update-schema)"
    "${tool[@]}" update-schema -d "$schema/versioned" >>"$state/schema.log" 2>&1 || { tail -20 "$state/schema.log" >&2; exit 1; }
  done
  [ "$(psql_c "select 1 from pg_database where datname = 'envgap'")" = 1 ] || psql_c "create database envgap" >/dev/null
}

start_server() {
  local bin=$1
  if running temporal-server; then step cluster "Temporal server runs (pid $(cat "$state/temporal-server.pid"))"; return; fi
  render deploy/temporal/config.yaml.tmpl "$state/temporal.yaml" PGHOST=127.0.0.1 PGPORT="$PGPORT" PGUSER=postgres PGPASSWORD= BROADCAST="$HOST_IP" BIND="$HOST_IP" \
    PORT_FRONTEND="$FRONTEND_PORT" PORT_FRONTEND_MEMBERSHIP=$((BASE - 1000 + 33)) PORT_HTTP=$((BASE + 43)) PORT_MATCHING=$((BASE + 35)) PORT_MATCHING_MEMBERSHIP=$((BASE - 1000 + 35)) \
    PORT_HISTORY=$((BASE + 34)) PORT_HISTORY_MEMBERSHIP=$((BASE - 1000 + 34)) PORT_WORKER=$((BASE + 39)) PORT_WORKER_MEMBERSHIP=$((BASE - 1000 + 39)) DYNAMIC_CONFIG="$ENVGAP_ROOT/deploy/temporal/dynamicconfig.yaml"
  local p ports=()
  for p in $((BASE - 1000 + 33)) $((BASE + 43)) $((BASE + 35)) $((BASE - 1000 + 35)) $((BASE + 34)) $((BASE - 1000 + 34)) $((BASE + 39)) $((BASE - 1000 + 39)); do ports+=("$HOST_IP:$p"); done
  require_free_ports "the Temporal server (ENVGAP_CLUSTER_PORT_BASE=$BASE)" "$address" "${ports[@]}" || exit 1
  step cluster "starting the Temporal server on $address (log: $state/temporal-server.log)"
  daemon "$state/temporal-server.log" "$bin/temporal-server" --config-file "$state/temporal.yaml" --allow-no-auth start
  echo $! > "$state/temporal-server.pid"
  wait_for_daemon "the Temporal server" "$state/temporal-server.pid" "$state/temporal-server.log" 300 temporal_cli operator cluster health
  temporal_cli operator namespace describe --namespace default >/dev/null 2>&1 \
    || { step cluster "registering the default namespace"; temporal_cli operator namespace create --namespace default --retention 30d >/dev/null; }
  wait_for_daemon "the default namespace" "$state/temporal-server.pid" "$state/temporal-server.log" 300 namespace_ready "$ENVGAP_HOME/bin/temporal" "$address"
}

start_ui() {
  local bin=$1
  if running temporal-ui; then step cluster "UI runs on http://127.0.0.1:$UI_PORT"; return; fi
  mkdir -p "$state/ui/config"
  render deploy/ui/config.yaml.tmpl "$state/ui/config/development.yaml" FRONTEND="$address" BIND=127.0.0.1 PORT_UI="$UI_PORT"
  require_free_ports "the Web UI (ENVGAP_CLUSTER_PORT_BASE=$BASE)" "127.0.0.1:$UI_PORT" || exit 1
  step cluster "starting the Web UI on http://127.0.0.1:$UI_PORT"
  daemon "$state/temporal-ui.log" "$bin/temporal-ui-server" --root "$state/ui" --config config --env development start
  echo $! > "$state/temporal-ui.pid"
  wait_for_daemon "the Web UI" "$state/temporal-ui.pid" "$state/temporal-ui.log" 300 curl -sf --noproxy '*' "http://127.0.0.1:$UI_PORT/"
}

# The cluster's bridge, and worker i's network namespace on it (idempotent).
start_bridge() {
  ip link show "$BRIDGE" >/dev/null 2>&1 || { step cluster "creating the bridge $BRIDGE ($HOST_IP/24)"; ip link add "$BRIDGE" type bridge; ip addr add "$HOST_IP/24" dev "$BRIDGE"; }
  ip link set "$BRIDGE" up
}
start_netns() {
  local i=$1 ns; ns=$(netns_of "$1")
  ip netns list | grep -qw "$ns" && return 0
  step cluster "network namespace $ns for worker $i ($NET_PREFIX.$((10 + i)))"
  ip netns add "$ns"
  ip link add "eg$BASE-$i" type veth peer name "eg$BASE-$i-ns"
  ip link set "eg$BASE-$i-ns" netns "$ns"
  ip link set "eg$BASE-$i" master "$BRIDGE" up
  ip -n "$ns" addr add "$NET_PREFIX.$((10 + i))/24" dev "eg$BASE-$i-ns"
  ip -n "$ns" link set "eg$BASE-$i-ns" up
  ip -n "$ns" link set lo up
  ip -n "$ns" route add default via "$HOST_IP"
}
stop_netns() {
  local i ns
  for i in $(seq "$WORKERS"); do ns=$(netns_of "$i"); ip netns list 2>/dev/null | grep -qw "$ns" && ip netns delete "$ns"; ip link delete "eg$BASE-$i" 2>/dev/null || true; done
  ip link delete "$BRIDGE" 2>/dev/null || true
}

start_workers() {
  bash scripts/ensure-node-deps.sh
  for i in $(seq "$WORKERS"); do
    if running "worker-$i"; then step cluster "worker $i runs (pid $(cat "$state/worker-$i.pid"))"; continue; fi
    mkdir -p "$state/worker-$i"
    local enter=()
    if [ "$NETNS" = on ]; then start_netns "$i"; enter=(nsenter "--net=/var/run/netns/$(netns_of "$i")" --); fi
    step cluster "starting envgap worker $i (state $state/worker-$i, log $state/worker-$i.log${enter:+, network namespace $(netns_of "$i")})"
    ENVGAP_STATE="$state/worker-$i" TEMPORAL_ADDRESS="$address" DATABASE_URL="$database_url" daemon "$state/worker-$i.log" "${enter[@]}" node bin/envgap.js worker
    echo $! > "$state/worker-$i.pid"
  done
}

stop() { # stop NAME
  if running "$1"; then kill "$(cat "$state/$1.pid")" 2>/dev/null || true
    for _ in $(seq 30); do running "$1" || break; sleep 1; done
    running "$1" && kill -9 "$(cat "$state/$1.pid")" 2>/dev/null || true
    step cluster "stopped $1"
  fi
  rm -f "$state/$1.pid"
}

case "${1:-}" in
  up)
    bin=$(bash deploy/build-temporal.sh | tail -1)
    bash scripts/ensure-temporal.sh >/dev/null
    if [ "$NETNS" = on ]; then start_bridge; fi
    start_postgres
    setup_schema "$bin"
    start_server "$bin"
    start_ui "$bin"
    start_workers
    step cluster "up: Temporal $address, UI http://127.0.0.1:$UI_PORT, results $database_url, $WORKERS worker(s)$([ "$NETNS" = on ] && echo ", each in its own network namespace")"
    echo "export TEMPORAL_ADDRESS=$address"
    echo "export DATABASE_URL=$database_url"
    ;;
  restart-server)
    bin=$(bash deploy/build-temporal.sh | tail -1)
    stop temporal-server
    start_server "$bin"
    ;;
  status)
    for p in temporal-server temporal-ui $(for i in $(seq "$WORKERS"); do echo "worker-$i"; done); do
      if running "$p"; then echo "$p: running (pid $(cat "$state/$p.pid"))"; else echo "$p: stopped"; fi
    done
    if pg_up; then echo "postgres: answers on 127.0.0.1:$PGPORT"; else echo "postgres: stopped"; fi
    ;;
  down)
    for i in $(seq "$WORKERS"); do stop "worker-$i"; done
    stop temporal-ui
    stop temporal-server
    if pg_up; then "${as_postgres[@]}" "$(postgres_bindir)/pg_ctl" -D "$pgdata" -m fast -w stop >/dev/null && step cluster "stopped Postgres"; fi
    if [ "$NETNS" = on ]; then stop_netns; fi
    if [ "${2:-}" = --purge ]; then
      # A worker killed mid-instance can leave its instance's disk (a loop-mounted file system) mounted in its state folder.
      if [ "$(id -u)" = 0 ]; then awk -v p="$state/" 'index($2, p) == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done; fi
      rm -rf "$pgdata" "$state"; step cluster "removed $pgdata and $state"
    fi
    ;;
  *) echo "usage: deploy/local-cluster.sh up | status | restart-server | down [--purge]" >&2; exit 2 ;;
esac
