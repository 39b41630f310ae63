#!/usr/bin/env bash
# A real browser for the tests of what a person reads (the HTML report): Debian's chromium, driven by
# playwright-core (an npm package; no browser is downloaded from elsewhere). ENVGAP_CHROMIUM names another.
source "$(dirname "$0")/lib.sh"
if [ -n "${ENVGAP_CHROMIUM:-}" ]; then step chromium "using $ENVGAP_CHROMIUM"; exit 0; fi
if ! command -v chromium >/dev/null 2>&1; then
  step chromium "installing Debian's chromium"
  apt_install chromium
fi
step chromium "$(chromium --version 2>/dev/null || echo 'chromium installed')"
