import type { InstanceRecord } from '../../../src/domain/instance';
import { prepareInstances, type Instance } from '../../../src/metrics/instances';

/** A successful first-attempt instance with empty sets; override what a test is about. */
export function record(over: Partial<InstanceRecord> = {}): InstanceRecord {
  return {
    schema: 'envgap.instance/v1',
    study: 's1',
    agent: 'claude',
    language: 'python',
    task: 'p_01',
    trial: 1,
    domain: 'Data Processing',
    status: 'success',
    first_attempt_success: true,
    repair_depth: 0,
    first_error_class: null,
    declared: [],
    installed: [],
    traced: [],
    traced_build: null,
    stdlib_sufficient: false,
    ...over,
  };
}

/** A first-attempt failure repaired after `depth` rounds (or never, with status failed). */
export function repaired(depth: number | null, over: Partial<InstanceRecord> = {}): InstanceRecord {
  return record({ first_attempt_success: false, repair_depth: depth, first_error_class: 'Build', ...over });
}

export function failed(over: Partial<InstanceRecord> = {}): InstanceRecord {
  return record({ status: 'failed', first_attempt_success: false, repair_depth: null, first_error_class: 'Build', traced: null, ...over });
}

export function instances(...records: InstanceRecord[]): Instance[] {
  return prepareInstances(records).instances;
}

export function instance(over: Partial<InstanceRecord> = {}): Instance {
  return instances(record(over))[0];
}
