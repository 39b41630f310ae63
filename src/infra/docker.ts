import Docker from 'dockerode';

/** The Docker connection and the container and image lookups every other Docker module builds on. */

export function connectDocker(): Docker {
  return process.env.DOCKER_HOST ? new Docker() : new Docker({ socketPath: '/var/run/docker.sock' });
}

export function isNotFound(err: unknown): boolean {
  return (err as { statusCode?: number }).statusCode === 404;
}

export async function removeContainerIfExists(docker: Docker, name: string): Promise<boolean> {
  try {
    await docker.getContainer(name).remove({ force: true, v: true });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    // 409: removal already in progress (a crashed attempt's cleanup); wait for it to finish.
    if ((err as { statusCode?: number }).statusCode === 409) {
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 500));
        try {
          await docker.getContainer(name).inspect();
        } catch (e) {
          if (isNotFound(e)) return true;
        }
      }
    }
    throw err;
  }
}

export async function imageExists(docker: Docker, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect();
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** For src/activities/runners/steps.ts, whose import the ecosystem work owns: new code imports it from ./exec. */
