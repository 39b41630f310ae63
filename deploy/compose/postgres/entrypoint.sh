#!/bin/sh
# Initialises the data folder once (trust on the compose network: it is published on the host's
# loopback only; set POSTGRES_PASSWORD for password authentication), creates POSTGRES_DATABASES,
# then runs the server in the foreground.
set -eu
mkdir -p "$PGDATA" /run/postgresql
chown postgres "$PGDATA" /run/postgresql
as_pg() { runuser -u postgres -- "$@"; }
if [ ! -f "$PGDATA/PG_VERSION" ]; then
  if [ -n "${POSTGRES_PASSWORD:-}" ]; then
    echo "$POSTGRES_PASSWORD" > /tmp/pw && chown postgres /tmp/pw
    as_pg initdb -D "$PGDATA" -U postgres -A scram-sha-256 --pwfile=/tmp/pw >/dev/null
    rm -f /tmp/pw
  else
    as_pg initdb -D "$PGDATA" -U postgres -A trust >/dev/null
  fi
  echo "host all all 0.0.0.0/0 $([ -n "${POSTGRES_PASSWORD:-}" ] && echo scram-sha-256 || echo trust)" >> "$PGDATA/pg_hba.conf"
  as_pg pg_ctl -D "$PGDATA" -o "-c listen_addresses=127.0.0.1" -w start >/dev/null
  for db in ${POSTGRES_DATABASES:-}; do as_pg psql -h 127.0.0.1 -U postgres -qc "create database $db" postgres; done
  as_pg pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec runuser -u postgres -- postgres -D "$PGDATA" -c listen_addresses='*' -c max_connections=300
