import * as os from 'node:os';

/** What one container is given (its study's limits), and what a machine has to give. */
export interface Resources {
  cpus: number;
  memoryMb: number;
}

export interface BudgetState {
  capacity: Resources;
  reserved: Resources;
  running: number;
  waiting: number;
}

interface Waiter {
  need: Resources;
  admit: () => void;
}

/**
 * The machine's CPUs and memory, shared by every container one worker process opens, whatever study or
 * protocol it belongs to: a container is started only once its limits fit beside the others'. Two
 * studies on one machine therefore never oversubscribe it, whatever their own `concurrency`. Waiters
 * are admitted in arrival order, so a large container is not starved by small ones. A container asking
 * more than the whole machine runs alone.
 */
export class MachineBudget {
  private reserved: Resources = { cpus: 0, memoryMb: 0 };
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly capacity: Resources) {
    if (!(capacity.cpus > 0) || !(capacity.memoryMb > 0)) throw new Error(`machine budget: capacity must be positive (cpus ${capacity.cpus}, memory ${capacity.memoryMb} MB)`);
  }

  state(): BudgetState {
    return { capacity: this.capacity, reserved: { ...this.reserved }, running: this.running, waiting: this.queue.length };
  }

  /**
   * Waits until `need` fits, reserves it, and returns the release (idempotent). An aborted wait
   * rejects with the signal's reason and reserves nothing.
   */
  reserve(need: Resources, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter = {
        need,
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          this.reserved = { cpus: this.reserved.cpus + need.cpus, memoryMb: this.reserved.memoryMb + need.memoryMb };
          this.running++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.reserved = { cpus: this.reserved.cpus - need.cpus, memoryMb: this.reserved.memoryMb - need.memoryMb };
            this.running--;
            this.admitWaiting();
          });
        },
      };
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        reject(signal!.reason);
        this.admitWaiting();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.admitWaiting();
    });
  }

  /** `work` with `need` reserved for its whole run (a container's life), released however it ends. */
  async with<T>(need: Resources, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const release = await this.reserve(need, signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private fits(need: Resources): boolean {
    if (this.running === 0) return true;
    // A small tolerance: CPU shares such as 0.1 do not add up exactly in floating point.
    return this.reserved.cpus + need.cpus <= this.capacity.cpus + 1e-9 && this.reserved.memoryMb + need.memoryMb <= this.capacity.memoryMb;
  }

  private admitWaiting(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0]!.need)) this.queue.shift()!.admit();
  }
}

/** Memory kept for the worker itself, Docker and the database beside the containers. */
const HARNESS_RESERVE_MB = 1024;

/**
 * The machine's capacity for containers: its CPUs and its memory less a reserve for the harness, or
 * what ENVGAP_WORKER_CPUS and ENVGAP_WORKER_MEMORY_MB say (a machine shared with other work, or a
 * deliberate overcommit). Errors name the variable.
 */
export function machineCapacity(env: NodeJS.ProcessEnv = process.env, machine = { cpus: os.availableParallelism(), memoryMb: Math.floor(os.totalmem() / 2 ** 20) }): Resources {
  const read = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!(n > 0)) throw new Error(`${name}=${raw}: expected a positive number`);
    return n;
  };
  return {
    cpus: read('ENVGAP_WORKER_CPUS', machine.cpus),
    memoryMb: read('ENVGAP_WORKER_MEMORY_MB', Math.max(512, machine.memoryMb - HARNESS_RESERVE_MB)),
  };
}

let shared: MachineBudget | undefined;

/** The budget of this process's machine, one for every worker and activity of the process. */
export function sharedMachineBudget(): MachineBudget {
  shared ??= new MachineBudget(machineCapacity());
  return shared;
}
