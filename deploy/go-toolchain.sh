#!/usr/bin/env bash
# The Go toolchain the deployment tier builds the Temporal server with, from the Go module proxy
# (golang.org/toolchain, the very archive GOTOOLCHAIN downloads), pinned by its sha256, unpacked once
# under $ENVGAP_HOME/go/<version>. No Go on the machine is needed; a machine's own Go is not used.
#
#   deploy/go-toolchain.sh        prints the toolchain's bin folder on its last line
source "$(dirname "$0")/../scripts/lib.sh"
GO_VERSION=go1.27.3
declare -A SHA256=(
  [amd64]=af4c06478303fdd1bfb335fab86c7ccb9b12e529044a946a16a1c4bcc779f8d7
  [arm64]=0ec0774cad42ecf4df82691146ee0b10c303ea594f163acb1737baedd5cc2835
)
case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no pinned Go toolchain for $(uname -m)" >&2; exit 1 ;;
esac
dir="$ENVGAP_HOME/go/$GO_VERSION.linux-$arch"
if [ -x "$dir/bin/go" ]; then echo "$dir/bin"; exit 0; fi
mkdir -p "$ENVGAP_HOME/go"
exec 8>"$dir.lock"
flock 8
if [ -x "$dir/bin/go" ]; then echo "$dir/bin"; exit 0; fi
proxy="${GOPROXY:-https://proxy.golang.org}"
proxy="${proxy%%,*}"
url="$proxy/golang.org/toolchain/@v/v0.0.1-$GO_VERSION.linux-$arch.zip"
step go "fetching $GO_VERSION from the Go module proxy ($url, about 75 MB, once)" >&2
tmp=$(mktemp -d "$ENVGAP_HOME/go/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --retry 3 -o "$tmp/go.zip" "$url"
echo "${SHA256[$arch]}  $tmp/go.zip" | sha256sum -c --quiet - >&2 || { echo "$url: not the pinned sha256 ${SHA256[$arch]}" >&2; exit 1; }
python3 - "$tmp/go.zip" "$tmp/unpacked" <<'PY'
import os, stat, sys, zipfile
src, out = sys.argv[1:3]
with zipfile.ZipFile(src) as z:
    for info in z.infolist():
        # golang.org/toolchain@v0.0.1-goX.linux-arch/<path>: the toolchain's own tree below the prefix.
        rel = info.filename.split("/", 2)[-1] if info.filename.count("/") >= 2 else None
        if not rel or info.is_dir():
            continue
        dest = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with z.open(info) as f, open(dest, "wb") as g:
            g.write(f.read())
        mode = (info.external_attr >> 16) & 0o777
        os.chmod(dest, mode or 0o644)
PY
chmod +x "$tmp/unpacked/bin/"* "$tmp/unpacked/pkg/tool/"*/* 2>/dev/null || true
mv "$tmp/unpacked" "$dir"
step go "$("$dir/bin/go" version) in $dir" >&2
echo "$dir/bin"
