#!/usr/bin/env bash
# Postgres binaries, and a real Postgres for the tests.
#
#   scripts/ensure-postgres.sh --install-only   Debian's postgresql package only: the CLI starts the state
#                                               folder's private server itself (src/infra/postgres.ts)
#   scripts/ensure-postgres.sh                  also a test cluster on 127.0.0.1:$ENVGAP_PGPORT (55432),
#                                               reused when it answers; skipped when DATABASE_URL is set
#
# Every server is started detached (setsid, stdin /dev/null, output to its log, no other descriptor
# of the caller), so a caller holding a pipe or a lock is not kept waiting while the server runs.
source "$(dirname "$0")/lib.sh"
install_only=false
if [ "${1:-}" = --install-only ]; then install_only=true; fi
if [ -n "${DATABASE_URL:-}" ] && [[ "$DATABASE_URL" != pglite:* ]]; then step postgres "using DATABASE_URL"; exit 0; fi
if $install_only && [ -n "${DATABASE_URL:-}" ]; then step postgres "using PGlite (DATABASE_URL=$DATABASE_URL)"; exit 0; fi
pgbin=$(postgres_bindir)
if [ -z "$pgbin" ] || [ ! -x "$pgbin/postgres" ]; then
  step postgres "installing Debian's postgresql"
  apt_install postgresql
  pgbin=$(postgres_bindir)
fi
if $install_only; then step postgres "binaries in $pgbin"; exit 0; fi
PGPORT="${ENVGAP_PGPORT:-55432}"
# The postgres user cannot enter /root, so as root the cluster lives outside it.
if [ "$(id -u)" = 0 ]; then data="${ENVGAP_PGDATA:-/var/lib/envgap/pg}"; else data="${ENVGAP_PGDATA:-$ENVGAP_STATE/pg}"; fi
if [ ! -f "$data/PG_VERSION" ]; then
  step postgres "initialising a cluster in $data"
  mkdir -p "$data"
  if [ "$(id -u)" = 0 ]; then chown postgres "$data"; fi
  "${as_postgres[@]}" "$pgbin/initdb" -D "$data" -A trust -U postgres >/dev/null
fi
if "${as_postgres[@]}" "$pgbin/pg_isready" -h 127.0.0.1 -p "$PGPORT" -q; then
  step postgres "server answers on 127.0.0.1:$PGPORT"
else
  step postgres "starting the server on 127.0.0.1:$PGPORT (log: $data/server.log)"
  # pg_ctl -w returns once the server answers; the server keeps none of our descriptors.
  if ! detached "$ENVGAP_STATE/pg_ctl.log" "${as_postgres[@]}" "$pgbin/pg_ctl" -D "$data" -l "$data/server.log" -o "-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1" -w start; then
    echo "the Postgres server did not start; see $data/server.log and $ENVGAP_STATE/pg_ctl.log" >&2
    tail -5 "$ENVGAP_STATE/pg_ctl.log" >&2 || true
    tail -20 "$data/server.log" >&2 || true
    exit 1
  fi
fi
