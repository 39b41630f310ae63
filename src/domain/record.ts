import type { ErrorClass, InfraError, InstanceRecord } from './instance';
import type { InstanceInput } from './study';

export interface InstanceObservations {
  /** Success of each executed iteration, in order (index = iteration). */
  outcomes: boolean[];
  firstErrorClass: ErrorClass | null;
  declared: string[] | null;
  installed: string[] | null;
  traced: string[] | null;
  tracedBuild: string[] | null;
  tracedDebianPackages: string[] | null;
  error: InfraError | null;
}

/** The instance record (docs/record.md) from what the protocol observed. Pure, so workflows can call it. */
export function buildInstanceRecord(input: InstanceInput, o: InstanceObservations): InstanceRecord {
  const depth = o.outcomes.indexOf(true);
  const status = o.error ? 'error' : depth >= 0 ? 'success' : 'failed';
  return {
    schema: 'envgap.instance/v1',
    study: input.study,
    agent: input.agent.name,
    language: input.language,
    task: input.task.id,
    trial: input.trial,
    domain: input.task.domain,
    status,
    first_attempt_success: o.outcomes[0] === true,
    repair_depth: depth >= 0 ? depth : null,
    first_error_class: o.outcomes[0] === false ? o.firstErrorClass : null,
    declared: o.declared,
    installed: o.installed,
    traced: status === 'success' ? o.traced : null,
    traced_build: status === 'success' ? o.tracedBuild : null,
    traced_debian_packages: status === 'success' ? o.tracedDebianPackages : null,
    stdlib_sufficient: null,
    iterations: o.outcomes.length,
    error: o.error,
  };
}
