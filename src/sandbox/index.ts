/**
 * The one sandbox every container of every protocol goes through (docs/ecosystems.md, "Sandbox"): the
 * environment gap protocol's Execute, readiness sessions and probes, README agents in containers and
 * Pass@1.
 */
export { Sandbox, type SandboxDeps, type SandboxExecOptions } from './sandbox';
export { checkSpec, parseBind, SandboxSpecError, specProblems, type CacheMode, type DiskFullPolicy, type NetworkChoice, type SandboxSpec } from './spec';
export { LEGACY_READINESS_LABEL, SANDBOX_LABELS, sandboxIdentity, sandboxLabels, sandboxName, type SandboxOwner, type SandboxProtocol } from './names';
export { ContainerGoneError } from './errors';
export { removeEarlierAttempts } from './attempts';
