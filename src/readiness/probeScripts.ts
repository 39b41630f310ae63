/**
 * The probes' own Python, run in fresh containers from the frozen environment. Each prints one JSON
 * object as its last line of output.
 */

/** Run with the interpreter the report names: what it is, and what torch there can see. */
export const FACTS_SCRIPT = `
import json, sys, platform
out = {"python_version": platform.python_version(), "prefix": sys.prefix, "torch_version": None, "torch_error": None, "cuda_available": False, "device_count": 0}
try:
    import torch
    out["torch_version"] = str(torch.__version__)
    out["cuda_available"] = bool(torch.cuda.is_available())
    out["device_count"] = int(torch.cuda.device_count()) if out["cuda_available"] else 0
except Exception as e:
    out["torch_error"] = type(e).__name__ + ": " + str(e)[:300]
print(json.dumps(out))
`;

/** cuda-check (C2): torch, then tensorflow, then jax; the first that imports says what it sees. */
export const CUDA_CHECK_SCRIPT = `
import json
out = {"framework": None, "framework_version": None, "cuda_available": False, "device_count": 0, "cuda_version": None, "errors": {}}
def try_torch():
    import torch
    out.update(framework="torch", framework_version=str(torch.__version__), cuda_version=torch.version.cuda)
    out["cuda_available"] = bool(torch.cuda.is_available())
    out["device_count"] = int(torch.cuda.device_count()) if out["cuda_available"] else 0
def try_tensorflow():
    import tensorflow as tf
    gpus = tf.config.list_physical_devices("GPU")
    info = tf.sysconfig.get_build_info() if hasattr(tf.sysconfig, "get_build_info") else {}
    out.update(framework="tensorflow", framework_version=str(tf.__version__), cuda_available=len(gpus) > 0, device_count=len(gpus), cuda_version=info.get("cuda_version"))
def try_jax():
    import jax
    gpus = [d for d in jax.devices() if d.platform == "gpu"]
    out.update(framework="jax", framework_version=str(jax.__version__), cuda_available=len(gpus) > 0, device_count=len(gpus))
for name, probe in (("torch", try_torch), ("tensorflow", try_tensorflow), ("jax", try_jax)):
    try:
        probe()
        break
    except Exception as e:
        out["errors"][name] = type(e).__name__ + ": " + str(e)[:300]
print(json.dumps(out))
`;

/**
 * The distinct top-level names imported by the repository's tracked Python files (C0's denominator),
 * as upstream's compute_baseline_imports.py counts them: absolute imports only, unparsable files
 * skipped, the same folders left out. Argument: a file listing the tracked paths, one a line.
 */
export const IMPORTS_SCRIPT = `
import ast, json, sys
EXCLUDE = {".git", "__pycache__", ".mypy_cache", ".pytest_cache", ".venv", "venv", "build", "dist", "node_modules", "build_output", "benchmark_assets", "benchmark_scripts"}
names = set()
for path in open(sys.argv[1], encoding="utf-8").read().splitlines():
    if not path.endswith(".py") or any(part in EXCLUDE for part in path.split("/")):
        continue
    try:
        tree = ast.parse(open(path, encoding="utf-8", errors="replace").read())
    except Exception:
        continue
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".", 1)[0] for a in node.names if a.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".", 1)[0])
print(json.dumps(sorted(n for n in names if n)))
`;
