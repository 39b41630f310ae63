import { unsetVariables } from '../agents/namedVariables';
import { say } from './say';

/**
 * Before a study starts: an agent naming a variable this environment lacks could never run, so the
 * study is refused, naming each. With workers of their own (--no-worker) the agents run in theirs,
 * which this process cannot see: it is said, not refused.
 */
export function refuseUnsetVariables(study: string, agents: Parameters<typeof unsetVariables>[0], inProcessWorker: boolean, env: NodeJS.ProcessEnv = process.env): void {
  const problems = unsetVariables(agents, env);
  if (problems.length === 0) return;
  if (!inProcessWorker) {
    for (const p of problems) say(`note: ${p}; the workers must have it`);
    return;
  }
  throw new Error(`study "${study}" not started: ${problems.join('; ')}. Set ${problems.length > 1 ? 'them' : 'it'} in the environment of envgap study run (the workers' environment), never in the study file`);
}
