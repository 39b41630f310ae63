/** Polls `check` until it holds, or fails after `timeoutMs` naming what it waited for. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
