#!/usr/bin/env bash
# The real Temporal server, its SQL schema tool and the Web UI server, built from their Go modules
# (the module proxy; no registry, no GitHub) once per version and cached under
# $ENVGAP_HOME/bin/cluster/<versions>/, with the server's SQL schema files beside them.
#
#   deploy/build-temporal.sh        prints the folder on its last line
#
# The server module needs Go >= 1.26.10: deploy/go-toolchain.sh fetches the pinned go1.27.3 from the Go
# module proxy (checked against its sha256). The first build takes about 7 CPU-minutes.
source "$(dirname "$0")/../scripts/lib.sh"
TEMPORAL_SERVER_VERSION=v1.32.2
# The UI server the Temporal CLI v1.5.1 embeds: newer ones need modules the module proxy here does not
# serve (v2.58.1: go.temporal.io/api v1.64.0, github.com/labstack/echo/v4 v4.16.1).
TEMPORAL_UI_VERSION=v2.42.1
dir="$ENVGAP_HOME/bin/cluster/server-$TEMPORAL_SERVER_VERSION-ui-$TEMPORAL_UI_VERSION"
if [ -x "$dir/temporal-server" ] && [ -x "$dir/temporal-sql-tool" ] && [ -x "$dir/temporal-ui-server" ] && [ -d "$dir/schema/postgresql" ]; then
  step cluster "Temporal server $TEMPORAL_SERVER_VERSION and UI $TEMPORAL_UI_VERSION cached in $dir" >&2
  echo "$dir"; exit 0
fi
# Two tests (or a test and a person) building at once: the second waits for the first, then finds it built.
mkdir -p "$dir"
exec 9>"$dir.lock"
if ! flock -n 9; then step cluster "another build of $dir is running: waiting for it" >&2; flock 9; fi
if [ -x "$dir/temporal-server" ] && [ -x "$dir/temporal-sql-tool" ] && [ -x "$dir/temporal-ui-server" ] && [ -d "$dir/schema/postgresql" ]; then
  step cluster "Temporal server $TEMPORAL_SERVER_VERSION and UI $TEMPORAL_UI_VERSION built by the other build in $dir" >&2
  echo "$dir"; exit 0
fi
# The pinned toolchain from the Go module proxy (deploy/go-toolchain.sh): no Go of the machine's is used,
# so a Debian 12 with its Go 1.19 (or none) builds the same.
PATH="$(bash "$ENVGAP_ROOT/deploy/go-toolchain.sh"):$PATH"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
progress() { awk -v what="$1" '/compile|link/ {n++; if (n % 100 == 0) printf "  ... %s: %d packages compiled\n", what, n; fflush()} /^go: downloading/ {d++; if (d % 50 == 0) printf "  ... %s: %d modules downloaded\n", what, d; fflush()}' >&2; }
build() { # build NAME MODULE@VERSION PACKAGE
  local name=$1 module=$2 pkg=$3 tmp
  [ -x "$dir/$name" ] && return 0
  step cluster "building $name from $module (first time only)" >&2
  tmp=$(mktemp -d)
  GOBIN="$tmp" go install -x "$pkg@${module#*@}" 2>&1 | tee "$dir/build-$name.log" | progress "$name"
  local built
  built=$(ls "$tmp" | head -1)
  [ -n "$built" ] || { echo "go install $pkg produced no binary; the end of $dir/build-$name.log:" >&2; grep -v '^\(mkdir\|cd\|cat\|EOF\|WORK\|#\|/\)' "$dir/build-$name.log" | tail -15 >&2; exit 1; }
  rm -f "$dir/build-$name.log"
  mv "$tmp/$built" "$dir/$name"
  rm -rf "$tmp"
}
build temporal-server "go.temporal.io/server@$TEMPORAL_SERVER_VERSION" go.temporal.io/server/cmd/server
build temporal-sql-tool "go.temporal.io/server@$TEMPORAL_SERVER_VERSION" go.temporal.io/server/cmd/tools/sql
build temporal-ui-server "github.com/temporalio/ui-server/v2@$TEMPORAL_UI_VERSION" github.com/temporalio/ui-server/v2/cmd/server
src=$(go mod download -json "go.temporal.io/server@$TEMPORAL_SERVER_VERSION" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
rm -rf "$dir/schema" && mkdir -p "$dir/schema" && cp -r "$src/schema/postgresql" "$dir/schema/" && chmod -R u+w "$dir/schema"
step cluster "ready: $dir" >&2
echo "$dir"
