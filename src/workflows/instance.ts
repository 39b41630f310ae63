import { ActivityFailure, ApplicationFailure, isCancellation, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ExecutionOutcome } from '../activities/types';
import type { ErrorClass, InfraError, InstanceRecord } from '../domain/instance';
import { buildInstanceRecord, type InstanceObservations } from '../domain/record';
import type { InstanceInput } from '../domain/study';

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };

const { callAgent } = proxyActivities<Activities>({
  startToCloseTimeout: '40 minutes',
  retry: { ...retry, nonRetryableErrorTypes: ['AgentInputError'] },
});
const { executeProject } = proxyActivities<Activities>({
  startToCloseTimeout: '90 minutes',
  heartbeatTimeout: '30s',
  retry,
});
// Short database-and-CPU steps run as local activities: no task-queue round trip each.
const { declaredDependencies, installedDependencies, tracedDependencies, tracedBuildDependencies } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry,
});
// Recording retries until the database answers again: a result is never dropped.
const { recordInstance } = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });

export interface InstanceOutcome {
  instanceId: string;
  status: InstanceRecord['status'];
  repairDepth: number | null;
  iterations: number;
  firstErrorClass: ErrorClass | null;
}

/**
 * One instance of the environment gap protocol: Gen, Execute, then Repair with the error up to k
 * times; on success Resolve (D2) and Trace (D3); D1 from the initial manifest M0.
 */
export async function instanceWorkflow(input: InstanceInput): Promise<InstanceOutcome> {
  const obs: InstanceObservations = { outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null };
  const agentCall = { instanceId: input.instanceId, agent: input.agent, task: input.task, language: input.language, trial: input.trial, budget: input.budget };
  try {
    const gen = await callAgent({ ...agentCall, iteration: 0, previousFilesHash: null, error: null });
    obs.declared = (await declaredDependencies({ language: input.language, filesHash: gen.filesHash })).names;

    let filesHash = gen.filesHash;
    let run: ExecutionOutcome = await execute(input, 0, filesHash);
    obs.outcomes.push(run.success);
    obs.firstErrorClass = run.errorClass;

    for (let i = 1; !run.success && i <= input.budget; i++) {
      const repair = await callAgent({
        ...agentCall,
        iteration: i,
        previousFilesHash: filesHash,
        error: run.errorHash ? { class: run.errorClass, hash: run.errorHash } : null,
      });
      filesHash = repair.filesHash;
      run = await execute(input, i, filesHash);
      obs.outcomes.push(run.success);
    }

    const final = { language: input.language, filesHash, artefacts: run.artefacts };
    if (run.success || run.failedStep === 'run') obs.installed = await installedDependencies(final);
    if (run.success) {
      const traced = await tracedDependencies(final);
      obs.traced = traced.names;
      obs.tracedDebianPackages = traced.debianPackages;
      obs.tracedBuild = await tracedBuildDependencies({ ...final, installed: obs.installed ?? [] });
    }
  } catch (err) {
    // A cancelled instance ends cancelled, unrecorded; its containers are removed by the activities.
    if (isCancellation(err)) throw err;
    obs.error = infrastructureError(err);
  }
  const record = buildInstanceRecord(input, obs);
  await recordInstance({ input, record });
  return {
    instanceId: input.instanceId,
    status: record.status,
    repairDepth: record.repair_depth,
    iterations: obs.outcomes.length,
    firstErrorClass: record.first_error_class,
  };
}

function execute(input: InstanceInput, iteration: number, filesHash: string): Promise<ExecutionOutcome> {
  return executeProject({ instanceId: input.instanceId, iteration, language: input.language, filesHash, limits: input.limits });
}

/** Activities that failed after their retries are faults of the harness or its machines, not of the agent. */
function infrastructureError(err: unknown): InfraError {
  if (err instanceof ActivityFailure) {
    const cause = err.cause;
    const kind = cause instanceof ApplicationFailure && cause.type ? cause.type : (cause?.name ?? 'ActivityFailure');
    return { kind, message: `${err.activityType}: ${cause?.message ?? err.message}` };
  }
  throw err;
}
