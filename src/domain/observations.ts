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
export function finalLayersWanted(outcome: ExecutionOutcome, succeeded: boolean): { installed: boolean; traced: boolean } {
  return { installed: outcome.success || outcome.failedStep === 'run', traced: succeeded };
}

/**
 * The final execution's part of the record: its run kind, provenance and layers. `layers` is null
 * only where none is wanted; `brought` says they came with the execution (D2's versions only do).
 */
export function withFinalExecution(obs: InstanceObservations, outcome: ExecutionOutcome, succeeded: boolean, layers: LayersResult | null, brought: boolean): InstanceObservations {
  const want = finalLayersWanted(outcome, succeeded);
  const next: InstanceObservations = { ...obs };
  if (succeeded) next.runKind = outcome.runKind ?? 'program';
  if (outcome.provenance) next.provenance = outcome.provenance;
  if (!layers || !(want.installed || want.traced)) return next;
  if (want.installed) {
    next.installed = layers.installed;
    if (brought && outcome.installedVersions) next.installedVersions = outcome.installedVersions;
  }
  if (want.traced) {
    next.traced = layers.traced;
    next.tracedDebianPackages = layers.tracedDebianPackages;
    next.tracedBuild = layers.tracedBuild;
  }
  return next;
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
  if (obs.declared === null && !outcome.declared) return null;
  const want = finalLayersWanted(outcome, outcome.success);
  if ((want.installed || want.traced) && !outcome.layers) return null;
  const declared = obs.declared === null ? withDeclared(obs, outcome.declared!) : obs;
  return withFinalExecution(withIteration(declared, iteration, iterationOf(outcome)), outcome, outcome.success, outcome.layers ?? null, true);
}
