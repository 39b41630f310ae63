import { deprecatePatch, isCancellation, patched } from '@temporalio/workflow';
import type { AgentCallInput, ExecutionOutcome } from '../activities/types';
import type { ErrorClass, InstanceRecord } from '../domain/instance';
import { withAnswer, withExecution, withFinalExecution, withIteration } from '../domain/observations';
import { buildInstanceRecord, recordFingerprint, type InstanceObservations } from '../domain/record';
import type { InstanceInput } from '../domain/study';
import { ENDPOINT_FAILURE_TYPES } from '../domain/endpointFaults';
import { confirmPhantoms } from './confirmPhantoms';
import { infrastructureError, protocolSteps, recordInstance } from './instanceSteps';

/**
 * The patch that instances started before revisions (no `revision` in their input) asked. Deprecated
 * (Temporal's patched, then deprecatePatch, then removal): it marks their histories as before, and
 * they take the one path there is. Histories that took the paths before it are retired
 * (test/fixtures/histories/retired/README.md).
 */
const ANSWER_WITH_EXECUTION = 'answer-with-execution';

/** Phantom confirmation after the final execution (docs/confirmation.md): asked only of instances whose input asks for it. */
const CONFIRM_PHANTOMS = 'confirm-phantoms';

export interface InstanceOutcome {
  instanceId: string;
  status: InstanceRecord['status'];
  repairDepth: number | null;
  iterations: number;
  firstErrorClass: ErrorClass | null;
  /** Where the agent's model endpoint refused its key: why the study starts no more of its instances. */
  configError?: string;
}

const NOTHING_OBSERVED: InstanceObservations = {
  outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null,
  humanIterations: [], gaveUp: false,
};

/**
 * One instance of the environment gap protocol. Gen asks the agent for code C0 and manifest M0;
 * Execute installs and runs them in a clean container; on failure Repair hands code, manifest and
 * error back to the agent, up to k (`budget`) times. An answer unusable after its samples is a
 * failed iteration of class AgentOutput, and an agent's own failed call (it crashed, timed out,
 * overflowed its context...) one of its class; both are handed to Repair like any error, and a preset
 * with memory continues its own session there. An agent that gives up (a
 * recording that ends) ends the loop: `failed`, with the iterations it has.
 *
 * Each execution brings along what the record needs of it: D1 = ParseManifest(M0) (of the first
 * usable project, where Gen's answer was unusable), and from the last one D2 = Resolve(Mk) where its
 * install ran, D3 and D3-build = Trace(Ck) where its run succeeded. The execution that ends the
 * instance stores the record with itself; the workflow stores it only where that did not happen.
 */
export async function instanceWorkflow(input: InstanceInput): Promise<InstanceOutcome> {
  // An instance carries the revision it was started for (src/domain/study.ts); one that does asks no patch.
  if ((input.revision ?? 0) < 1) deprecatePatch(ANSWER_WITH_EXECUTION);
  const step = protocolSteps(input);
  let obs = NOTHING_OBSERVED;
  /** The last usable project (what Repair revises) and the last execution (the record's layers are its). */
  let project: string | null = null;
  let last: ExecutionOutcome | null = null;
  /** The agent's own session, continued by Repair (a preset with memory). */
  let session: string | null = null;
  try {
    let error: AgentCallInput['error'] = null;
    for (let iteration = 0; iteration <= input.budget; iteration++) {
      const { answer, outcome } = await step({ iteration, previousFilesHash: project, previousSessionHash: session, error, observed: obs });
      if (answer.kind !== 'gave-up' && answer.sessionHash) session = answer.sessionHash;
      if (answer.kind === 'gave-up') {
        obs = { ...obs, gaveUp: true };
        break;
      }
      if (answer.kind === 'unusable') {
        // The agent's failed call (an unusable answer, a crash, a timeout...): a failed iteration of its class, handed to Repair.
        const errorClass = answer.errorClass ?? 'AgentOutput';
        obs = withIteration(obs, iteration, { success: false, errorClass });
        error = { class: errorClass, hash: answer.errorHash };
        continue;
      }
      project = answer.filesHash;
      last = outcome!;
      obs = withExecution(withAnswer(obs, iteration, answer), iteration, last);
      if (last.success) break;
      error = last.errorHash ? { class: last.errorClass, hash: last.errorHash } : null;
    }
    if (last) obs = withFinalExecution(obs, last);
  } catch (err) {
    // A cancelled instance ends cancelled, unrecorded; its activities have removed their containers.
    if (isCancellation(err)) throw err;
    obs = { ...obs, error: infrastructureError(err) };
  }
  // Phantom confirmation, where the study asks (patched: only instances that ask take this path).
  if (input.confirmPhantoms && last?.success && project !== null && obs.error === null && obs.declared !== null && obs.traced !== null && patched(CONFIRM_PHANTOMS)) {
    const subject = { instanceId: input.instanceId, language: input.language, filesHash: project, ...(last.runSpec ? { run: last.runSpec } : {}), limits: input.limits, declared: obs.declared, installed: obs.installed, traced: obs.traced, ...(input.resolveAsOf ? { resolveAsOf: input.resolveAsOf } : {}) };
    obs = { ...obs, confirmation: await confirmPhantoms(input.instanceId, subject, input.confirmPhantoms.maxTrials) };
  }
  const record = buildInstanceRecord(input, obs);
  // Stored already where the final execution stored this very record; anything else is stored here.
  if (last?.recorded?.fingerprint !== recordFingerprint(record)) await recordInstance({ input, record });
  return {
    instanceId: input.instanceId,
    status: record.status,
    repairDepth: record.repair_depth,
    iterations: obs.outcomes.length,
    firstErrorClass: record.first_error_class,
    ...(record.error?.kind === ENDPOINT_FAILURE_TYPES.auth ? { configError: `${input.agent.name}: ${record.error.message}` } : {}),
  };
}
