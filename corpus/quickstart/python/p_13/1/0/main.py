"""HMAC File Integrity Checker: generates and verifies HMAC manifests for
files and directories, detecting modified, missing and newly added files."""
import fnmatch
import hashlib
import hmac
import json
import sys
import tempfile
import time
from pathlib import Path

import click

ALGORITHMS = {"sha256": "sha256", "sha384": "sha384", "sha512": "sha512", "sha3-256": "sha3_256"}
COLORS = {"unchanged": "green", "modified": "red", "missing": "yellow", "added": "blue"}


def file_hmac(path: Path, key: bytes, algorithm: str) -> str:
    mac = hmac.new(key, digestmod=getattr(hashlib, ALGORITHMS[algorithm]))
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(65536), b""):
            mac.update(chunk)
    return mac.hexdigest()


def collect_files(root: Path, excludes: list[str], manifest: Path | None) -> dict[str, Path]:
    candidates = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
    base = root.parent if root.is_file() else root
    files = {}
    for path in candidates:
        rel = path.relative_to(base).as_posix()
        if manifest and path.resolve() == manifest.resolve():
            continue
        if any(fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(path.name, pat) for pat in excludes):
            continue
        files[rel] = path
    return files


def master_hmac(entries: dict, key: bytes, algorithm: str) -> str:
    payload = json.dumps(entries, sort_keys=True).encode()
    return hmac.new(key, payload, getattr(hashlib, ALGORITHMS[algorithm])).hexdigest()


def generate(root: Path, key: bytes, algorithm: str, excludes: list[str], output: Path) -> dict:
    entries = {}
    for rel, path in collect_files(root, excludes, output).items():
        try:
            stat = path.stat()
            entries[rel] = {"hmac": file_hmac(path, key, algorithm), "size": stat.st_size,
                            "mtime": stat.st_mtime}
        except PermissionError:
            click.secho(f"  skipped (permission denied): {rel}", fg="yellow", err=True)
    manifest = {"algorithm": algorithm, "root": str(root), "created": time.time(), "files": entries,
                "master_hmac": master_hmac(entries, key, algorithm)}
    output.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    click.echo(f"Manifest with {len(entries)} file(s) written to {output}")
    return manifest


def verify(root: Path, key: bytes, manifest_path: Path, excludes: list[str]) -> dict[str, list[str]]:
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    algorithm, recorded = manifest["algorithm"], manifest["files"]
    if not hmac.compare_digest(master_hmac(recorded, key, algorithm), manifest["master_hmac"]):
        raise click.ClickException("manifest master HMAC mismatch: manifest was tampered with or key is wrong")
    current = collect_files(root, excludes, manifest_path)
    results: dict[str, list[str]] = {status: [] for status in COLORS}
    for rel, entry in recorded.items():
        if rel not in current:
            results["missing"].append(rel)
        elif hmac.compare_digest(file_hmac(current[rel], key, algorithm), entry["hmac"]):
            results["unchanged"].append(rel)
        else:
            results["modified"].append(rel)
    results["added"] = sorted(set(current) - set(recorded))
    return results


def report(results: dict[str, list[str]]) -> None:
    click.echo("\nVerification summary:")
    for status, color in COLORS.items():
        for rel in results[status]:
            click.secho(f"  [{status.upper():9}] {rel}", fg=color)
    counts = ", ".join(f"{len(v)} {k}" for k, v in results.items())
    click.echo(f"Totals: {counts}")


def demo(algorithm: str) -> None:
    key = b"demo-secret-key"
    with tempfile.TemporaryDirectory(prefix="hmac-demo-") as tmp:
        root = Path(tmp) / "data"
        (root / "docs").mkdir(parents=True)
        (root / "config.ini").write_text("[server]\nport = 8080\n")
        (root / "docs" / "readme.txt").write_text("Integrity demo document.\n")
        (root / "docs" / "notes.txt").write_text("These notes will be deleted.\n")
        (root / "logo.bin").write_bytes(bytes(range(256)) * 4)
        manifest = Path(tmp) / "integrity_manifest.json"
        click.echo(f"Demo directory: {root} (algorithm {algorithm})")
        generate(root, key, algorithm, [], manifest)
        (root / "config.ini").write_text("[server]\nport = 6666\n")
        (root / "docs" / "notes.txt").unlink()
        (root / "backdoor.sh").write_text("#!/bin/sh\necho pwned\n")
        click.echo("Tampered: modified config.ini, deleted docs/notes.txt, added backdoor.sh")
        report(verify(root, key, manifest, []))


@click.command()
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--key", help="secret HMAC key")
@click.option("--mode", type=click.Choice(["generate", "verify"]), default="generate")
@click.option("--algorithm", type=click.Choice(list(ALGORITHMS)), default="sha256")
@click.option("--exclude", default="", help='comma-separated globs, e.g. "*.log,*.tmp"')
@click.option("--output", type=click.Path(path_type=Path), default=Path("integrity_manifest.json"))
def cli(path, key, mode, algorithm, exclude, output):
    """Generate or verify an HMAC integrity manifest for PATH (demo when omitted)."""
    if path is None:
        demo(algorithm)
        return
    if not key:
        raise click.UsageError("--key is required when PATH is given")
    excludes = [p.strip() for p in exclude.split(",") if p.strip()]
    if mode == "generate":
        generate(path, key.encode(), algorithm, excludes, output)
    else:
        results = verify(path, key.encode(), output, excludes)
        report(results)
        if results["modified"] or results["missing"] or results["added"]:
            sys.exit(2)


if __name__ == "__main__":
    cli()
