# Shared helpers for the set-up scripts: progress lines, state folder, idempotent installs.
set -euo pipefail
ENVGAP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ENVGAP_HOME="${ENVGAP_HOME:-$HOME/.cache/envgap}"
export ENVGAP_STATE="${ENVGAP_STATE:-$ENVGAP_HOME/state}"
mkdir -p "$ENVGAP_HOME/bin" "$ENVGAP_STATE"

step() { printf '\033[1m[envgap setup %s]\033[0m %s\n' "$1" "$2"; }
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
