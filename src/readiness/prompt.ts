import { REPO_ROOT, REPORT_PATH } from './paths';

/**
 * What a readiness agent is told (docs/readiness.md quotes it verbatim). It follows ResearchEnvBench's
 * task in substance (the repository at $REPO_ROOT, an isolated environment, a report from verified
 * values, the hidden stages named) in our own words.
 */
export const READINESS_PROMPT = `You are setting up a Python environment for the machine-learning research repository at ${REPO_ROOT} (also in the environment variable REPO_ROOT), inside this container.

1. Read the repository's dependency metadata (pyproject.toml, requirements*.txt, environment.yml, setup.py, the README).
2. Create an isolated environment with a tool of your choice (venv, conda, uv, ...) and install what the repository needs.
3. Verify it: the interpreter's absolute path and version, the repository's imports, torch and CUDA where they apply.
4. Write ${REPORT_PATH}, a JSON object with the keys python_path (absolute), python_version, torch_version, cuda_available, gpu_count, ddp_expected_ok, env_tool, env_name and notes, from values you checked by running the interpreter, not guessed; use null for what does not apply or you did not check.

Do not change, move or delete any file that is part of the repository; files you add are fine.
After you finish, hidden checks run in a copy of this container: missing imports (pyright), the repository's CPU entry point, GPU visibility, single- and multi-GPU runs where they apply, and whether your report matches what they observe.
`;
