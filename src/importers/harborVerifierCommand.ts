import { REPO_SCRIPTS_DIR } from '../domain/readinessStudy';
import { workdirLinkCommand } from './harborShell';

/**
 * A Harbor task's verifier as a readiness entry. The repository's hidden scripts folder (mounted at
 * /opt/envgap/scripts in the probe containers, never in the agent's session) holds the task's tests/
 * and this script, which does what Harbor does after the agent: tests/ copied to /tests,
 * `/tests/test.sh` run in the task's working directory with its output in
 * /logs/verifier/test-stdout.txt, then the reward read from /logs/verifier/reward.json, else
 * reward.txt. The stage passes where every reward is at least 1; the rewards are printed, so the
 * stage's output keeps them.
 */
export const VERIFY_SCRIPT = 'verify.sh';
/** The task's tests/, inside the scripts folder. */
export const TESTS_FOLDER = 'tests';

const VERDICT = [
  'import json,math,os,sys',
  'd="/logs/verifier"',
  'j=os.path.join(d,"reward.json")',
  't=os.path.join(d,"reward.txt")',
  'try:',
  '    if os.path.exists(j) and os.path.getsize(j)>0:',
  '        r=json.load(open(j))',
  '        r=r if isinstance(r,dict) else {"reward":r}',
  '    elif os.path.exists(t) and os.path.getsize(t)>0:',
  '        r={"reward":float(open(t).read())}',
  '    else:',
  '        sys.exit("envgap: the verifier wrote no reward (/logs/verifier/reward.json or reward.txt)")',
  '    v=[float(x) for x in r.values()]',
  'except (ValueError,TypeError) as e:',
  '    sys.exit("envgap: the reward is not a number: "+str(e))',
  'print("envgap: harbor rewards "+json.dumps(r,sort_keys=True))',
  'sys.exit(0 if v and all(math.isfinite(x) and x>=1 for x in v) else 1)',
].join('\n');

const q = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** verify.sh: `bash verify.sh WORKDIR`. */
export function harborVerifyScript(): string {
  return [
    '#!/bin/bash',
    '# envgap import harbor: the task\'s verifier as Harbor runs it, then its reward as the stage\'s verdict.',
    'workdir="$1"',
    'here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
    `rm -rf /tests /logs/verifier && mkdir -p /logs/verifier && cp -r "$here/${TESTS_FOLDER}" /tests && chmod +x /tests/test.sh`,
    '(cd "$workdir" && /tests/test.sh > /logs/verifier/test-stdout.txt 2>&1)',
    'cat /logs/verifier/test-stdout.txt',
    `exec /usr/bin/python3 -c '${VERDICT}'`,
    '',
  ].join('\n');
}

/** The entry: the working directory linked to /repo (as the imported sessions link it), then verify.sh with the verifier's variables. */
export function harborVerifierCommand(workdir: string, env: Record<string, string> = {}): string {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${q(v)} `).join('');
  return `${workdirLinkCommand(workdir)} && ${vars}bash ${REPO_SCRIPTS_DIR}/${VERIFY_SCRIPT} ${q(workdir)}`;
}
