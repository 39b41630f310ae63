#!/usr/bin/env bash
# The Temporal CLI (dev server), built from its Go module once and cached under $ENVGAP_HOME/bin.
source "$(dirname "$0")/lib.sh"
TEMPORAL_CLI_VERSION=v1.5.1
if [ -n "${ENVGAP_TEMPORAL_CLI:-}" ]; then
  [ -x "$ENVGAP_TEMPORAL_CLI" ] || { echo "ENVGAP_TEMPORAL_CLI=$ENVGAP_TEMPORAL_CLI is not an executable" >&2; exit 1; }
  step temporal "using $ENVGAP_TEMPORAL_CLI"; exit 0
fi
bin="$ENVGAP_HOME/bin/temporal"
if [ -x "$bin" ] && [ "$(cat "$bin.version" 2>/dev/null)" = "$TEMPORAL_CLI_VERSION" ]; then
  step temporal "CLI $TEMPORAL_CLI_VERSION cached at $bin"; exit 0
fi
if ! have go; then step temporal "installing Go"; apt_install golang-go; fi
step temporal "building the Temporal CLI $TEMPORAL_CLI_VERSION with go install (first time only, a few minutes)"
GOBIN="$ENVGAP_HOME/bin" go install -x "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_CLI_VERSION" 2>&1 \
  | awk '/^(mkdir|WORK|cd|cat|EOF)/ {next} /compile|link/ {n++; if (n % 50 == 0) printf "  ... %d packages compiled\n", n} /^go: downloading/ {d++; if (d % 25 == 0) printf "  ... %d modules downloaded\n", d}'
test -x "$bin" || { echo "go install did not produce $bin" >&2; exit 1; }
echo "$TEMPORAL_CLI_VERSION" > "$bin.version"
step temporal "CLI ready: $bin"
