import type { ContainerConfig, MirrorSettings } from '../ecosystems/ecosystem';
import { ECOSYSTEMS } from '../ecosystems/registry';

export type { ContainerConfig } from '../ecosystems/ecosystem';

/** Points every language's package manager inside a container at a local mirror or wheelhouse, when configured (each ecosystem record's `packageManager.mirror`). */
export function mirrorConfig(s: MirrorSettings): ContainerConfig {
  const c: ContainerConfig = { env: [], binds: [], files: {} };
  for (const ecosystem of Object.values(ECOSYSTEMS)) {
    const m = ecosystem.packageManager.mirror(s);
    c.env.push(...m.env);
    c.binds.push(...m.binds);
    Object.assign(c.files, m.files);
  }
  return c;
}
