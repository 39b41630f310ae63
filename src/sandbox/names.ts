import { createHash } from 'node:crypto';

/**
 * The one label family of every sandbox, of every protocol. `envgap cleanup` reads `instance` (the
 * workflow the container works for) and removes what belongs to instances no longer running; `spec` is
 * how a later activity re-attaches with the limits the container was opened with.
 */
export const SANDBOX_LABELS = {
  instance: 'envgap.instance',
  protocol: 'envgap.protocol',
  role: 'envgap.role',
  attempt: 'envgap.attempt',
  /** The environment gap protocol's iteration (its Execute containers). */
  iteration: 'envgap.iteration',
  spec: 'envgap.sandbox',
} as const;

/** What readiness sessions, probes and Pass@1 containers (and frozen images) carried before the sandbox: cleanup still reads it. */
export const LEGACY_READINESS_LABEL = 'envgap.readiness';

export type SandboxProtocol = 'envgap' | 'readiness' | 'readme';

export interface SandboxOwner {
  instanceId: string;
  protocol: SandboxProtocol;
  /** What the container is for within its instance: `i3` (an iteration), `session`, `c0`, `pass`, ... */
  role: string;
  attempt: number;
}

/**
 * Docker-safe and deterministic: the same attempt of an instance's role always gets the same name, and
 * two attempts never share one, so a retry cannot collide with an attempt still alive.
 */
export function sandboxName(instanceId: string, role: string, attempt = 1): string {
  const slug = instanceId.replace(/[^a-zA-Z0-9_.-]+/g, '.').slice(0, 150);
  const hash = createHash('sha256').update(instanceId).digest('hex').slice(0, 8);
  return `envgap-${slug}-${hash}-${role.replace(/[^a-zA-Z0-9_.-]+/g, '.')}-a${attempt}`;
}

/** The labels that tie a sandbox to its instance, role and attempt. */
export function sandboxLabels(o: SandboxOwner, extra: Record<string, string> = {}): Record<string, string> {
  return {
    [SANDBOX_LABELS.instance]: o.instanceId,
    [SANDBOX_LABELS.protocol]: o.protocol,
    [SANDBOX_LABELS.role]: o.role,
    [SANDBOX_LABELS.attempt]: String(o.attempt),
    ...extra,
  };
}

/** A name and labels for one attempt of an instance's role. */
export function sandboxIdentity(o: SandboxOwner, extra: Record<string, string> = {}): { name: string; labels: Record<string, string> } {
  return { name: sandboxName(o.instanceId, o.role, o.attempt), labels: sandboxLabels(o, extra) };
}
