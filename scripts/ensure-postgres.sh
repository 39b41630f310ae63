#!/usr/bin/env bash
# A real Postgres for the tests: reuse DATABASE_URL, else run a private cluster under the state folder.
source "$(dirname "$0")/lib.sh"
if [ -n "${DATABASE_URL:-}" ]; then step postgres "using DATABASE_URL"; exit 0; fi
PGPORT="${ENVGAP_PGPORT:-55432}"
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$pgbin" ] || [ ! -x "$pgbin/postgres" ]; then
  step postgres "installing Debian's postgresql"
  apt_install postgresql
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
# The postgres user cannot enter /root, so as root the cluster lives outside it.
if [ "$(id -u)" = 0 ]; then data="${ENVGAP_PGDATA:-/var/lib/envgap/pg}"; else data="${ENVGAP_PGDATA:-$ENVGAP_STATE/pg}"; fi
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
if [ ! -f "$data/PG_VERSION" ]; then
  step postgres "initialising a cluster in $data"
  mkdir -p "$data"; if [ "$(id -u)" = 0 ]; then chown postgres "$data"; fi
  as_pg "$pgbin/initdb -D '$data' -A trust -U postgres >/dev/null"
fi
if as_pg "$pgbin/pg_isready -h 127.0.0.1 -p $PGPORT -q"; then
  step postgres "server answers on 127.0.0.1:$PGPORT"
else
  step postgres "starting the server on 127.0.0.1:$PGPORT"
  as_pg "$pgbin/pg_ctl -D '$data' -l '$data/server.log' -o '-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1' -w start >/dev/null"
fi
