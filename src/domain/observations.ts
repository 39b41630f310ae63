import type { DeclaredResult, ExecutionOutcome, LayersResult } from './execution';
import type { EnvironmentMatch, ErrorClass } from './instance';
import type { InstanceObservations } from './record';

/**
 * What an instance observed, step by step, as pure functions: the workflow applies them as the
 * protocol runs, and the execution that ends an instance applies the same ones to store its record
 * (src/activities/execute.ts), so both arrive at the same record.
 */

/** One iteration as the record counts it: executed, or an unusable answer (AgentOutput). */
export interface IterationResult {
  success: boolean;
  errorClass: ErrorClass | null;
  environment?: EnvironmentMatch;
  timeoutKind?: 'silent' | 'busy';
}

/** An answer a person wrote (a recording's `"author": "human"`) is kept apart from the agent's repairs. */
export function withAnswer(obs: InstanceObservations, iteration: number, answer: { author?: 'agent' | 'human' }): InstanceObservations {
  return answer.author === 'human' ? { ...obs, humanIterations: [...(obs.humanIterations ?? []), iteration] } : obs;
}

export function withDeclared(obs: InstanceObservations, d1: DeclaredResult): InstanceObservations {
  return {
    ...obs,
    declared: d1.names,
    ...(d1.manifestStatus ? { manifest: { status: d1.manifestStatus, error: d1.problem ?? null, testScoped: d1.testScoped ?? [] } } : {}),
  };
}

/** Iteration 0 also says how the first attempt failed: its error class, environment rule and kind of timeout. */
export function withIteration(obs: InstanceObservations, iteration: number, it: IterationResult): InstanceObservations {
  const next = { ...obs, outcomes: [...obs.outcomes, it.success] };
  if (iteration !== 0) return next;
  return {
    ...next,
    firstErrorClass: it.errorClass,
    ...(it.environment ? { firstEnvironment: it.environment } : {}),
    ...(it.timeoutKind ? { firstTimeoutKind: it.timeoutKind } : {}),
  };
}

export function iterationOf(outcome: ExecutionOutcome): IterationResult {
  return {
    success: outcome.success,
    errorClass: outcome.errorClass,
    ...(outcome.environment ? { environment: outcome.environment } : {}),
    ...(outcome.timeoutKind ? { timeoutKind: outcome.timeoutKind } : {}),
  };
}

/** Which layers the final execution yields: Resolve (D2) where the install ran, Trace (D3, D3-build) where the run succeeded. */
export function finalLayersWanted(outcome: ExecutionOutcome): { installed: boolean; traced: boolean } {
  return { installed: outcome.success || outcome.failedStep === 'run', traced: outcome.success };
}

/**
 * The final execution's part of the record: its run kind, provenance and the layers it brought
 * along. An execution that should have brought D1 or the layers and did not (an activity worker of
 * another build) leaves the record an `error`, never a record with a layer silently missing.
 */
export function withFinalExecution(obs: InstanceObservations, outcome: ExecutionOutcome): InstanceObservations {
  const want = finalLayersWanted(outcome);
  const next: InstanceObservations = { ...obs };
  if (outcome.success) next.runKind = outcome.runKind ?? 'program';
  if (outcome.provenance) next.provenance = outcome.provenance;
  const missing = [obs.declared === null && 'D1', (want.installed || want.traced) && !outcome.layers && 'D2/D3'].filter(Boolean);
  if (missing.length > 0) return { ...next, error: { kind: 'IncompleteExecution', message: `the final execution brought no ${missing.join(' and ')}` } };
  const layers = outcome.layers!;
  if (want.installed) {
    next.installed = layers.installed;
    if (outcome.installedVersions) next.installedVersions = outcome.installedVersions;
    if (layers.installedTest) next.installedTest = layers.installedTest;
    if (layers.installedProvided) next.installedProvided = layers.installedProvided;
  }
  if (want.traced) {
    next.traced = layers.traced;
    next.tracedDebianPackages = layers.tracedDebianPackages;
    next.tracedBuild = layers.tracedBuild;
    if (layers.tracedAggregated) next.tracedAggregated = layers.tracedAggregated;
    if (layers.tracedBase) next.tracedBase = layers.tracedBase;
    if (outcome.coverage) next.coverage = outcome.coverage;
  }
  return next;
}

/** An executed iteration: D1 where it is still missing (the execution was asked for it), and the iteration's result. */
export function withExecution(obs: InstanceObservations, iteration: number, outcome: ExecutionOutcome): InstanceObservations {
  const declared = obs.declared === null && outcome.declared ? withDeclared(obs, outcome.declared) : obs;
  return withIteration(declared, iteration, iterationOf(outcome));
}

/** Whether this execution's iteration is the instance's last: it succeeded, or no Repair is left. */
export function endsInstance(iteration: number, budget: number, outcome: ExecutionOutcome): boolean {
  return outcome.success || iteration >= budget;
}

/**
 * The instance's observations once this execution is applied, where it ends the instance and brought
 * everything the record needs (D1 where still missing, the layers it yields); null otherwise, and the
 * workflow completes and stores the record itself.
 */
export function observationsEndingWith(obs: InstanceObservations, iteration: number, budget: number, outcome: ExecutionOutcome): InstanceObservations | null {
  if (!endsInstance(iteration, budget, outcome)) return null;
  const ending = withFinalExecution(withExecution(obs, iteration, outcome), outcome);
  return ending.error ? null : ending;
}
