import type { ConfirmationPlan } from '../../domain/confirmation/types';
import type { ProjectFiles } from '../../domain/files';
import type { Language } from '../../domain/instance';
import { declaredDependencies } from '../declared';
import { withoutDeclared, withoutInstalled } from './index';

export interface InstanceLayers {
  declared: readonly string[];
  installed: readonly string[] | null;
  traced: readonly string[];
}

/**
 * Which names a confirmation of an instance tries, from its layers and its final project: the
 * phantoms (D1 \ D3) still declared in the final manifest that the transform can take out; those the
 * final manifest no longer declares (unneeded: the final project ran without them); those it cannot
 * take out. The bloat (D2 \ D3) where the ecosystem can remove an installed package, else why not.
 */
export function confirmationPlan(language: Language, files: ProjectFiles, layers: InstanceLayers): ConfirmationPlan {
  const traced = new Set(layers.traced);
  const phantoms = [...new Set(layers.declared.filter((n) => !traced.has(n)))].sort();
  const finalDeclared = new Set(declaredDependencies(language, files).names);
  const inFinal = phantoms.filter((n) => finalDeclared.has(n));
  const removable = inFinal.filter((n) => withoutDeclared(language, files, [n]).notFound.length === 0);
  const plan: ConfirmationPlan = {
    phantom: { removable, notInFinalManifest: phantoms.filter((n) => !finalDeclared.has(n)), notRemovable: inFinal.filter((n) => !removable.includes(n)) },
  };
  if (layers.installed === null) return plan;
  const probe = withoutInstalled(language, files, []);
  if ('unsupported' in probe) return { ...plan, bloat: { unsupported: probe.unsupported } };
  return { ...plan, bloat: { removable: [...new Set(layers.installed.filter((n) => !traced.has(n)))].sort() } };
}
