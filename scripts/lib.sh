# Shared helpers for the set-up scripts: progress lines, state folder, idempotent installs.
set -euo pipefail
ENVGAP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ENVGAP_HOME="${ENVGAP_HOME:-$HOME/.cache/envgap}"
export ENVGAP_STATE="${ENVGAP_STATE:-$ENVGAP_HOME/state}"
mkdir -p "$ENVGAP_HOME/bin" "$ENVGAP_STATE"

step() { printf '\033[1m[envgap setup %s]\033[0m %s\n' "$1" "$2"; }
# `timed NAME CMD...`: runs CMD, then one line with how long it took.
timed() { local name=$1 t=$SECONDS; shift; "$@"; step "$name" "done in $((SECONDS - t)) s"; }
have() { command -v "$1" >/dev/null 2>&1; }

apt_install() {
  if [ ! -f "$ENVGAP_STATE/.apt-updated" ] || [ -n "$(find "$ENVGAP_STATE/.apt-updated" -mmin +1440 2>/dev/null)" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    touch "$ENVGAP_STATE/.apt-updated"
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
}

# Whether node_modules matches package.json and the lock, by the stamp scripts/ensure-node-deps.sh
# writes (same hash). The fast test tiers need the packages only, not the TypeScript build.
node_packages_current() {
  local lock_hash
  lock_hash=$(cd "$ENVGAP_ROOT" && sha256sum package.json package-lock.json 2>/dev/null | sha256sum | cut -c1-16)
  [ -d "$ENVGAP_ROOT/node_modules" ] && [ "$(cat "$ENVGAP_ROOT/node_modules/.envgap-lock" 2>/dev/null)" = "$lock_hash" ]
}

# Closes every descriptor above stderr (of the calling subshell).
close_fds() { local fd; for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; }

# `detached LOG CMD...` runs CMD in its own session (setsid) with stdin from /dev/null, stdout and stderr
# appended to LOG and every other descriptor of the caller closed, and waits for it (pg_ctl -w start).
# `daemon LOG CMD...` does the same in the background and returns at once (dockerd). Either way a
# daemon never holds the caller's pipe or lock (a caller reading our output, or holding flock, is not
# kept waiting while the daemon runs). Do not add `&` to `detached`: the extra subshell would hold them.
detached() {
  local log="$1"
  shift
  (
    close_fds
    exec setsid "$@" </dev/null >>"$log" 2>&1
  )
}
daemon() {
  local log="$1"
  shift
  (
    close_fds
    exec setsid "$@" </dev/null >>"$log" 2>&1
  ) &
}

# The newest Debian Postgres bin folder (/usr/lib/postgresql/N/bin), or nothing.
postgres_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true; }

# The prefix that runs a command as the postgres user when root (Postgres refuses to run as root):
# "${as_postgres[@]}" CMD..., also inside `detached` (a plain command, not a function).
if [ "$(id -u)" = 0 ]; then as_postgres=(runuser -u postgres --); else as_postgres=(); fi

# `wait_for WHAT SECONDS COMMAND...`: runs COMMAND once a second until it succeeds; says what did not come up.
wait_for() {
  local what=$1 s=$2; shift 2
  for _ in $(seq "$s"); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  echo "$what did not come up in ${s}s" >&2; return 1
}

# `wait_for_daemon WHAT PIDFILE LOG SECONDS COMMAND...`: as wait_for, but fails at once, with the end of
# LOG, when the daemon has exited (it could not bind its port, say) instead of waiting out SECONDS.
wait_for_daemon() {
  local what=$1 pidfile=$2 log=$3 s=$4; shift 4
  for _ in $(seq "$s"); do
    "$@" >/dev/null 2>&1 && return 0
    if ! kill -0 "$(cat "$pidfile")" 2>/dev/null || [ "$(awk '{print $3}' "/proc/$(cat "$pidfile")/stat" 2>/dev/null)" = Z ]; then
      echo "$what exited before it came up; the end of $log:" >&2; tail -15 "$log" >&2; return 1
    fi
    sleep 1
  done
  echo "$what did not come up in ${s}s; the end of $log:" >&2; tail -15 "$log" >&2; return 1
}

# `require_free_ports WHO HOST:PORT...`: fails naming each port something already listens on, and what.
require_free_ports() {
  local who=$1 busy=0 hp; shift
  for hp in "$@"; do
    local held; held=$(ss -Hltnp "sport = :${hp##*:}" 2>/dev/null | awk -v a="${hp%:*}:${hp##*:}" '$4 == a || $4 ~ /^(0\.0\.0\.0|\*|\[::\]):/ {print $4, $6}')
    if [ -n "$held" ]; then echo "$who: port ${hp##*:} is taken ($held); choose other ports" >&2; busy=1; fi
  done
  return $busy
}

# A namespace that takes workflow calls: `namespace describe` reads the database, while a workflow start
# asks the frontend's namespace registry, which refused a namespace registered a moment before
# (NamespaceNotFound) in a study started right after `describe` answered.
namespace_ready() { # namespace_ready TEMPORAL_CLI ADDRESS
  "$1" workflow list --namespace default --limit 1 --address "$2"
}

