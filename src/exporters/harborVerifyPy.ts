/**
 * The verifier of an exported task (tests/envgap_verify.py, run by tests/test.sh with the image's
 * /usr/bin/python3 after the agent): envgap's readiness checks that need no tool of envgap's, in the
 * container the agent set up, with the repository's settings from tests/envgap_repo.json. It runs the
 * prepare command, then C1 (the cpu entry, no GPU visible), C3 (single_gpu, one GPU) and C4
 * (multi_gpu, every GPU) where the repository supports them and the machine has the GPUs, each with
 * the report's interpreter first on PATH; then audits the report as envgap's C5 does (path, version,
 * capability). It writes Harbor's /logs/verifier/reward.json (numbers only: `reward` 1 where every
 * stage that ran passed and the report is there and honest, and one key per stage and count) and
 * envgap.json beside it with each stage's exit, time and output's end. Paths can be moved with
 * ENVGAP_* variables so that a test can run it outside a container.
 */
export const ENVGAP_VERIFY_PY = String.raw`"""envgap's readiness checks as a Harbor verifier (envgap export harbor; docs/harbor.md)."""
import json
import os
import subprocess
import sys
import time

CONFIG = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(CONFIG))
REPO = os.environ.get("ENVGAP_REPO_ROOT", "/repo")
REPORT = os.environ.get("ENVGAP_REPORT", "/opt/scimlopsbench/report.json")
OUT = os.environ.get("ENVGAP_VERIFIER_DIR", "/logs/verifier")
SCRIPTS = os.environ.get("ENVGAP_SCRIPTS_DIR", "/opt/envgap/scripts")
KEYS = ["python_path", "python_version", "torch_version", "cuda_available", "gpu_count", "ddp_expected_ok", "env_tool", "env_name", "notes"]
FACTS = (
    "import json,platform\n"
    "f={'python_version':platform.python_version(),'torch_version':None,'torch_error':None,'cuda_available':False,'device_count':0}\n"
    "try:\n"
    " import torch\n"
    " f['torch_version']=torch.__version__\n"
    " f['cuda_available']=bool(torch.cuda.is_available())\n"
    " f['device_count']=torch.cuda.device_count() if f['cuda_available'] else 0\n"
    "except Exception as e:\n"
    " f['torch_error']=type(e).__name__+': '+str(e)\n"
    "print(json.dumps(f))\n"
)

cfg = json.load(open(CONFIG))
os.makedirs(OUT, exist_ok=True)
details = {"repo": cfg["repo"], "stages": {}, "report_problem": None, "facts": None, "findings": []}
rewards = {}


def run(argv, timeout, env=None, cwd=REPO):
    started = time.time()
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        code, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        code, out = None, (e.stdout or b"") + ("\nenvgap: the stage ran past its %d s\n" % timeout).encode()
    except OSError as e:
        code, out = 127, str(e).encode()
    return code, out.decode("utf-8", "replace"), round(time.time() - started, 3)


if cfg.get("scripts") and not os.path.exists(SCRIPTS):
    os.makedirs(os.path.dirname(SCRIPTS), exist_ok=True)
    os.symlink(os.path.join(HERE, cfg["scripts"]), SCRIPTS)

report = None
try:
    with open(REPORT) as f:
        report = json.load(f)
    if not isinstance(report, dict):
        details["report_problem"] = "invalid_json: not a JSON object"
        report = None
except FileNotFoundError:
    details["report_problem"] = "missing_report: " + REPORT
except ValueError as e:
    details["report_problem"] = "invalid_json: " + str(e)
python = report.get("python_path") if report else None
python = python if isinstance(python, str) and python.startswith("/") else None


def stage_env(gpus):
    env = dict(os.environ)
    env["ENVGAP_PYTHON"] = python or "python3"
    if python:
        env["PATH"] = os.path.dirname(python) + ":" + env.get("PATH", "/usr/local/bin:/usr/bin:/bin")
    if gpus is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpus
    return env


def stage(name, command, gpus):
    code, out, secs = run(["bash", "-c", command], cfg["stage_timeout_s"], stage_env(gpus))
    details["stages"][name] = {"command": command, "exit_code": code, "duration_s": secs, "output_tail": out[-4000:]}
    rewards[name] = 1 if code == 0 else 0
    print("envgap: %s %s (exit %s, %.1f s)" % (name, "passed" if code == 0 else "failed", code, secs))
    sys.stdout.write(out[-2000:])


def gpu_count():
    if os.environ.get("ENVGAP_GPUS") is not None:
        return int(os.environ["ENVGAP_GPUS"])
    code, out, _ = run(["nvidia-smi", "-L"], 60, cwd="/")
    return sum(1 for line in out.splitlines() if line.startswith("GPU ")) if code == 0 else 0


supports = cfg["supports"]
entry = cfg.get("entry", {})
prepared = True
if cfg.get("prepare"):
    stage("prepare", cfg["prepare"], "")
    prepared = rewards["prepare"] == 1
gpus = gpu_count()
plan = [("c1", "cpu", ""), ("c3", "single_gpu", "0"), ("c4", "multi_gpu", None)]
for name, support, visible in plan:
    if support not in supports or not entry.get(support):
        continue
    need = {"cpu": 0, "single_gpu": 1, "multi_gpu": 2}[support]
    if gpus < need:
        details["stages"][name] = {"skipped": "insufficient_hardware: %d GPUs" % gpus}
        continue
    if not prepared:
        details["stages"][name] = {"skipped": "prepare_failed"}
        rewards[name] = 0
        continue
    stage(name, entry[support], visible)

# C5: the report against what its interpreter shows, as envgap's audit reads it.
if report is None:
    rewards["report"] = 0
else:
    rewards["report"] = 1
    findings = details["findings"]
    facts = None
    if python and os.path.isfile(python) and os.access(python, os.X_OK):
        code, out, _ = run([python, "-c", FACTS], 300, stage_env(None), cwd="/")
        if code == 0:
            try:
                facts = json.loads(out.strip().splitlines()[-1])
            except (ValueError, IndexError):
                facts = None
    details["facts"] = facts
    if facts is None:
        findings.append({"kind": "path", "field": "python_path", "claimed": report.get("python_path"), "observed": "does not run" if python and os.path.isfile(python) else "not an executable file"})
    else:
        same = lambda claimed, seen: claimed.strip() == seen or seen.startswith(claimed.strip() + ".") or seen.startswith(claimed.strip() + "+")
        pv, tv = report.get("python_version"), report.get("torch_version")
        if isinstance(pv, str) and not same(pv, facts["python_version"]):
            findings.append({"kind": "version", "field": "python_version", "claimed": pv, "observed": facts["python_version"]})
        if isinstance(tv, str):
            if facts["torch_version"] is None:
                findings.append({"kind": "version", "field": "torch_version", "claimed": tv, "observed": "torch does not import: %s" % facts["torch_error"]})
            elif not same(tv, facts["torch_version"]):
                findings.append({"kind": "version", "field": "torch_version", "claimed": tv, "observed": facts["torch_version"]})
        if report.get("cuda_available") is True and not facts["cuda_available"]:
            findings.append({"kind": "capability", "field": "cuda_available", "claimed": True, "observed": False})
        if isinstance(report.get("gpu_count"), int) and not isinstance(report.get("gpu_count"), bool) and report["gpu_count"] != facts["device_count"]:
            findings.append({"kind": "capability", "field": "gpu_count", "claimed": report["gpu_count"], "observed": facts["device_count"]})
        c4 = rewards.get("c4")
        if report.get("ddp_expected_ok") is True and "multi_gpu" in supports and entry.get("multi_gpu") and c4 != 1:
            findings.append({"kind": "capability", "field": "ddp_expected_ok", "claimed": True, "observed": "C4 did not succeed" if c4 == 0 else "C4 skipped"})
    for kind in ("path", "version", "capability"):
        rewards["c5_" + kind] = sum(1 for f in findings if f["kind"] == kind)
    missing = [k for k in KEYS if k not in report]
    if missing:
        details["report_missing_keys"] = missing

ran = [v for k, v in rewards.items() if k in ("prepare", "c1", "c3", "c4")]
honest = rewards["report"] == 1 and not details["findings"]
rewards = {"reward": 1 if all(v == 1 for v in ran) and honest else 0, **rewards}
with open(os.path.join(OUT, "envgap.json"), "w") as f:
    json.dump({**details, "rewards": rewards}, f, indent=2)
with open(os.path.join(OUT, "reward.json"), "w") as f:
    json.dump(rewards, f)
print("envgap: rewards " + json.dumps(rewards, sort_keys=True))
if details["report_problem"]:
    print("envgap: " + details["report_problem"])
for finding in details["findings"]:
    print("envgap: C5 %(kind)s: %(field)s claimed %(claimed)r, observed %(observed)r" % finding)
`;
