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

/** /dev/shm's size in bytes, or None: NCCL and DataLoader workers need it, and a container's is small by default. */
const SHM_BYTES = `
def shm_bytes():
    try:
        s = os.statvfs("/dev/shm")
        return s.f_frsize * s.f_blocks
    except OSError:
        return None
`;

/**
 * C3 generic (the kernel check): with the interpreter it runs on and the first framework that imports
 * (torch, then tensorflow, then jax), allocate on one device, a float32 matmul there, synchronize, and
 * compare with the same matmul on the CPU. `--device cpu` (or ENVGAP_PROBE_DEVICE=cpu) runs the same
 * steps with the CPU as the device, for a machine without a GPU. Exit 0 when ok (the verdict's rule,
 * src/readiness/genericVerdict.ts), else 1.
 */
export const KERNEL_CHECK_SCRIPT = `
import argparse, json, math, os, platform, sys, time
${SHM_BYTES}
p = argparse.ArgumentParser()
p.add_argument("--device", choices=["cuda", "cpu"], default=os.environ.get("ENVGAP_PROBE_DEVICE", "cuda"))
p.add_argument("--size", type=int, default=1024)
p.add_argument("--alloc-mb", type=int, default=256)
p.add_argument("--tolerance", type=float, default=1e-2)
a = p.parse_args()
out = {"probe": "kernel", "framework": None, "framework_version": None, "device": a.device, "device_available": None, "device_name": None,
       "size": a.size, "max_abs_error": None, "scale": None, "tolerance": a.tolerance, "timings_s": {}, "shm_bytes": shm_bytes(), "error": None, "errors": {}}

def timed(name, fn):
    t = time.perf_counter()
    r = fn()
    out["timings_s"][name] = round(time.perf_counter() - t, 6)
    return r

def inputs():
    import numpy as np
    rng = np.random.default_rng(0)
    return rng.standard_normal((a.size, a.size), dtype=np.float32), rng.standard_normal((a.size, a.size), dtype=np.float32)

def with_torch(torch):
    if a.device == "cuda":
        out["device_available"] = bool(torch.cuda.is_available())
        if not out["device_available"]:
            return None
        dev = torch.device("cuda", 0)
        out["device_name"] = torch.cuda.get_device_name(dev)
        sync = torch.cuda.synchronize
    else:
        dev, sync = torch.device("cpu"), (lambda: None)
        out["device_available"] = True
        out["device_name"] = platform.processor() or platform.machine()
    timed("alloc", lambda: (torch.ones(a.alloc_mb * 262144, device=dev), sync()))
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(a.size, a.size, generator=g), torch.randn(a.size, a.size, generator=g)
    xd, yd = timed("to_device", lambda: (x.to(dev), y.to(dev), sync())[:2])
    zd = timed("matmul", lambda: (xd @ yd, sync())[0])
    z = timed("to_host", lambda: zd.cpu())
    ref = timed("cpu_matmul", lambda: x @ y)
    return float((z - ref).abs().max()), float(ref.abs().max())

def with_tensorflow(tf):
    if a.device == "cuda":
        gpus = tf.config.list_physical_devices("GPU")
        out["device_available"] = len(gpus) > 0
        if not gpus:
            return None
        out["device_name"] = tf.config.experimental.get_device_details(gpus[0]).get("device_name", gpus[0].name)
        name = "/GPU:0"
    else:
        out["device_available"], out["device_name"], name = True, platform.processor() or platform.machine(), "/CPU:0"
    x, y = inputs()
    with tf.device(name):
        timed("alloc", lambda: tf.ones([a.alloc_mb * 262144]).numpy())
        xd, yd = timed("to_device", lambda: (tf.identity(x), tf.identity(y)))
        zd = timed("matmul", lambda: tf.matmul(xd, yd))
        z = timed("to_host", lambda: zd.numpy())
    ref = timed("cpu_matmul", lambda: x @ y)
    return float(abs(z - ref).max()), float(abs(ref).max())

def with_jax(jax):
    import jax.numpy as jnp
    if a.device == "cuda":
        devs = [d for d in jax.devices() if d.platform == "gpu"]
        out["device_available"] = len(devs) > 0
        if not devs:
            return None
        dev = devs[0]
    else:
        dev = jax.devices("cpu")[0]
        out["device_available"] = True
    out["device_name"] = dev.device_kind
    x, y = inputs()
    timed("alloc", lambda: jax.device_put(jnp.ones(a.alloc_mb * 262144), dev).block_until_ready())
    xd, yd = timed("to_device", lambda: (jax.device_put(x, dev).block_until_ready(), jax.device_put(y, dev).block_until_ready()))
    zd = timed("matmul", lambda: jnp.matmul(xd, yd, precision=jax.lax.Precision.HIGHEST).block_until_ready())
    z = timed("to_host", lambda: jax.device_get(zd))
    ref = timed("cpu_matmul", lambda: x @ y)
    return float(abs(z - ref).max()), float(abs(ref).max())

def import_torch():
    import torch
    return torch, str(torch.__version__)
def import_tensorflow():
    import tensorflow as tf
    return tf, str(tf.__version__)
def import_jax():
    import jax
    return jax, str(jax.__version__)

for name, load, check in (("torch", import_torch, with_torch), ("tensorflow", import_tensorflow, with_tensorflow), ("jax", import_jax, with_jax)):
    try:
        module, version = load()
    except Exception as e:
        out["errors"][name] = type(e).__name__ + ": " + str(e)[:300]
        continue
    out["framework"], out["framework_version"] = name, version
    try:
        seen = check(module)
        if seen is not None:
            err, scale = seen
            out["max_abs_error"] = err if math.isfinite(err) else None
            out["scale"] = scale if math.isfinite(scale) else None
            if out["max_abs_error"] is None:
                out["error"] = "the device's result is not finite"
    except Exception as e:
        out["error"] = type(e).__name__ + ": " + str(e)[:500]
    break
ok = out["error"] is None and out["max_abs_error"] is not None and out["scale"] is not None and out["max_abs_error"] <= a.tolerance * max(1.0, out["scale"])
print(json.dumps(out), flush=True)
sys.exit(0 if ok else 1)
`;

/**
 * C4 generic (the all-reduce), one process per rank under torchrun (env://): each rank contributes
 * rank + 1 in every element, sums over the backend (nccl: one GPU per rank, by LOCAL_RANK; gloo: the
 * CPU), checks its own result, then the ranks count who was right (a second all-reduce). Rank 0 prints
 * the verdict; every rank exits 1 when something is wrong. The process group's timeout is below the
 * stage's, so a hung collective is reported by rank 0 before the stage is killed.
 */
export const ALL_REDUCE_SCRIPT = `
import argparse, datetime, json, os, sys, time
${SHM_BYTES}
p = argparse.ArgumentParser()
p.add_argument("--backend", choices=["nccl", "gloo"], default="nccl")
p.add_argument("--elements", type=int, default=1 << 20)
p.add_argument("--timeout-s", type=float, default=300)
a = p.parse_args()
rank, world, local = int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1")), int(os.environ.get("LOCAL_RANK", "0"))
expected = world * (world + 1) / 2
out = {"probe": "all_reduce", "backend": a.backend, "world_size": world, "expected": expected, "got": None, "mismatched_elements": None, "ranks_ok": None,
       "framework_version": None, "nccl_version": None, "device_name": None, "shm_bytes": shm_bytes(), "timings_s": {}, "error": None}
ok = False
try:
    import torch
    import torch.distributed as dist
    out["framework_version"] = str(torch.__version__)
    if a.backend == "nccl":
        torch.cuda.set_device(local)
        dev = torch.device("cuda", local)
        out["device_name"] = torch.cuda.get_device_name(dev)
        out["nccl_version"] = ".".join(str(v) for v in torch.cuda.nccl.version())
        sync = torch.cuda.synchronize
    else:
        dev, sync = torch.device("cpu"), (lambda: None)
    t = time.perf_counter()
    dist.init_process_group(a.backend, timeout=datetime.timedelta(seconds=a.timeout_s))
    out["timings_s"]["init"] = round(time.perf_counter() - t, 6)
    x = torch.full((a.elements,), float(rank + 1), dtype=torch.float32, device=dev)
    t = time.perf_counter()
    dist.all_reduce(x)
    sync()
    out["timings_s"]["all_reduce"] = round(time.perf_counter() - t, 6)
    out["got"] = float(x[0])
    out["mismatched_elements"] = int((x != expected).sum())
    mine = torch.tensor([1 if out["mismatched_elements"] == 0 else 0], dtype=torch.int32, device=dev)
    dist.all_reduce(mine)
    sync()
    out["ranks_ok"] = int(mine[0])
    ok = out["ranks_ok"] == world
    dist.destroy_process_group()
except Exception as e:
    out["error"] = type(e).__name__ + ": " + str(e)[:500]
    print("rank %d: %s" % (rank, out["error"]), file=sys.stderr, flush=True)
if rank == 0:
    print(json.dumps(out), flush=True)
sys.exit(0 if ok else 1)
`;
