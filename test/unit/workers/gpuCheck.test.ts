import { checkGpus, GpuCheckError } from '../../../src/workers/gpuCheck';

const HOST = '0, NVIDIA H200, 570.86.15, 143771 MiB\n1, NVIDIA H200, 570.86.15, 143771 MiB\n';
const INSIDE = 'GPU 0: NVIDIA H200 (UUID: GPU-aaaa)\nGPU 1: NVIDIA H200 (UUID: GPU-bbbb)\n';
const fail = (message: string) => () => Promise.reject(new Error(message));

describe("a gpu worker's start-up check", () => {
  it('passes when the host lists GPUs and a container with a device request sees them all', async () => {
    expect(await checkGpus({ host: async () => HOST, container: async () => INSIDE })).toHaveLength(2);
  });

  it('says when the host has no driver or no GPU', async () => {
    const noDriver = await checkGpus({ host: fail('spawn nvidia-smi ENOENT'), container: async () => INSIDE }).catch((e) => e);
    expect(noDriver).toBeInstanceOf(GpuCheckError);
    expect(noDriver).toMatchObject({ failed: 'host' });
    expect(noDriver.message).toContain('nvidia-smi on this machine did not run (spawn nvidia-smi ENOENT)');
    await expect(checkGpus({ host: async () => '\n', container: async () => INSIDE })).rejects.toMatchObject({ failed: 'host', message: expect.stringContaining('lists none') });
  });

  it('says when containers cannot have them, whatever runtime Docker lists', async () => {
    const noToolkit = await checkGpus({ host: async () => HOST, container: fail('could not select device driver "nvidia" with capabilities: [[gpu]]') }).catch((e) => e);
    expect(noToolkit).toMatchObject({ failed: 'container' });
    expect(noToolkit.message).toContain('could not select device driver');
    expect(noToolkit.message).toContain('NVIDIA Container Toolkit');
    await expect(checkGpus({ host: async () => HOST, container: async () => 'GPU 0: NVIDIA H200 (UUID: GPU-aaaa)\n' })).rejects.toMatchObject({ failed: 'container', message: expect.stringContaining('sees 1') });
  });
});
