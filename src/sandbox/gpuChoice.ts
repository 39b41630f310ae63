/** What a container asks of the machine's GPUs. */
export interface GpuRequest {
  /** `all`: every GPU of the worker (the session, C2, C4); a number: that many (C3: one). */
  count: number | 'all';
  /** The study lets its instances share GPUs (otherwise no two instances hold the same one). */
  share: boolean;
}

/** A container already holding GPUs: its instance and the indexes it was given. */
export interface GpuHolder {
  instanceId: string;
  gpus: number[];
}

/** The label a container carries with the GPU indexes it holds (`0,1`): Docker keeps the leases, so they outlive a worker. */
export const GPU_LABEL = 'envgap.gpus';

export function formatGpuLabel(gpus: readonly number[]): string {
  return gpus.join(',');
}

export function parseGpuLabel(label: string | undefined): number[] {
  if (!label) return [];
  return label
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n >= 0);
}

/**
 * The GPU indexes an instance's container gets, or null where they are not free yet. The instance's
 * own containers never count against it (its session and its probes may overlap while one is
 * removed); another instance's count unless the study shares. `all` needs every GPU of the machine;
 * a number takes the lowest free ones. Asking more than the machine has is an error (it never fits). Pure.
 */
export function chooseGpus(machine: readonly number[], holders: readonly GpuHolder[], instanceId: string, request: GpuRequest): number[] | null {
  const all = [...new Set(machine)].sort((a, b) => a - b);
  const wanted = request.count === 'all' ? all.length : request.count;
  if (all.length === 0 || wanted > all.length) throw new Error(`${wanted} GPU${wanted === 1 ? '' : 's'} asked, and this worker has ${all.length}`);
  if (wanted < 1) throw new Error(`a GPU request of ${wanted} is not a request`);
  if (request.share) return all.slice(0, wanted);
  const busy = new Set(holders.filter((h) => h.instanceId !== instanceId).flatMap((h) => h.gpus));
  const free = all.filter((g) => !busy.has(g));
  return free.length >= wanted ? free.slice(0, wanted) : null;
}

/**
 * Of containers created at about the same time for different instances, which one keeps GPUs they
 * both took: the earlier created (then the smaller name). The other gives them back and waits. Pure.
 */
export function losesRace(mine: { name: string; created: number; gpus: number[]; instanceId: string }, others: readonly { name: string; created: number; gpus: number[]; instanceId: string }[]): boolean {
  return others.some((o) => o.instanceId !== mine.instanceId && o.gpus.some((g) => mine.gpus.includes(g)) && (o.created < mine.created || (o.created === mine.created && o.name < mine.name)));
}
