import type { TrialRemoval } from './types';

/**
 * The key of one trial (what names its sandbox, with the instance id): the same removal (and the
 * same repeat of the unchanged project) always gets the same key, another removal another one. A
 * short FNV-1a of the removal; pure, so workflows can call it.
 */
export function trialKey(remove: TrialRemoval, repeat = 0): string {
  const text = `d:${[...remove.declared].sort().join(',')};i:${[...remove.installed].sort().join(',')}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const kind = remove.declared.length + remove.installed.length === 0 ? 'base' : `${remove.declared.length}d${remove.installed.length}i`;
  return `x${kind}-${h.toString(16).padStart(8, '0')}${repeat > 0 ? `-r${repeat}` : ''}`;
}
