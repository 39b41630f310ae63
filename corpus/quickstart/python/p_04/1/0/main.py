"""YAML Config Merger: deep-merges several YAML files with array strategies,
conflict reporting and ${VAR:-default} environment interpolation."""
import argparse
import os
import re
import sys
from pathlib import Path

import yaml

ENV_PATTERN = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")

SAMPLES = {
    "base.yaml": """
app:
  name: demo-service
  debug: false
  features: [auth, metrics]
database:
  connection:
    host: localhost
    port: 5432
  pool_size: 5
""",
    "staging.yaml": """
app:
  debug: true
  features: [metrics, tracing]
database:
  connection:
    host: staging-db.internal
    port: 6432
logging:
  level: ${LOG_LEVEL:-info}
""",
    "local.yaml": """
app:
  features: [hot-reload]
database:
  connection:
    port: 5433
  password: ${DB_PASSWORD:-changeme}
""",
}


def load_yaml(path: Path) -> dict:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "unknown location"
        raise SystemExit(f"error: malformed YAML in {path} at {where}: {exc.problem}")
    except OSError as exc:
        raise SystemExit(f"error: cannot read {path}: {exc.strerror}")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SystemExit(f"error: {path} must contain a mapping at top level")
    return data


def interpolate(value):
    if isinstance(value, str):
        return ENV_PATTERN.sub(lambda m: os.environ.get(m.group(1), m.group(2) or ""), value)
    if isinstance(value, dict):
        return {k: interpolate(v) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v) for v in value]
    return value


def merge_lists(old: list, new: list, strategy: str) -> list:
    if strategy == "append":
        return old + new
    if strategy == "unique":
        result = list(old)
        for item in new:
            if item not in result:
                result.append(item)
        return result
    return list(new)


def deep_merge(base, overlay, strategy, origin, source, conflicts, path=""):
    for key, value in overlay.items():
        key_path = f"{path}.{key}" if path else str(key)
        if isinstance(value, dict) and isinstance(base.setdefault(key, {}), dict):
            deep_merge(base[key], value, strategy, origin, source, conflicts, key_path)
        elif key in base and isinstance(base[key], list) and isinstance(value, list):
            base[key] = merge_lists(base[key], value, strategy)
            origin[key_path] = source
        else:
            if key in base and base[key] != value:
                conflicts.append((key_path, origin.get(key_path, "?"), base[key], source, value))
            base[key] = value
            origin[key_path] = source
    return base


def write_samples(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in SAMPLES.items():
        path = directory / name
        path.write_text(text.lstrip(), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description="Deep-merge YAML configuration files.")
    parser.add_argument("files", nargs="*", type=Path, help="YAML files, later files win")
    parser.add_argument("--array-strategy", choices=["replace", "append", "unique"], default="replace")
    parser.add_argument("--output", type=Path, default=Path("merged_config.yaml"))
    args = parser.parse_args()

    files = args.files
    if not files:
        files = write_samples(Path("sample_configs"))
        print(f"No input files given; generated samples: {', '.join(str(p) for p in files)}")
        if args.array_strategy == "replace":
            args.array_strategy = "unique"
    if len(files) < 2:
        parser.error("at least two YAML files are required")

    merged, origin, conflicts = {}, {}, []
    for path in files:
        deep_merge(merged, load_yaml(path), args.array_strategy, origin, path.name, conflicts)
    merged = interpolate(merged)

    print(f"\nArray strategy: {args.array_strategy}")
    if conflicts:
        print(f"Conflicts resolved ({len(conflicts)}):")
        for key_path, old_src, old, new_src, new in conflicts:
            print(f"  {key_path}: {old_src}={old!r} -> {new_src}={new!r}")
    rendered = yaml.safe_dump(merged, sort_keys=False, default_flow_style=False)
    print("\nMerged configuration:\n" + rendered)
    args.output.write_text(f"# merged from: {', '.join(p.name for p in files)}\n" + rendered, encoding="utf-8")
    print(f"Saved merged configuration to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
