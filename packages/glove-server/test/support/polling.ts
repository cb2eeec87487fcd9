/** Waiting without timed assertions: poll generously, so a slow machine only makes a test slower. */

/** Waits until `predicate` holds (it may be async), polling every 20 ms for up to `timeoutMs`; returns whether it did. */
export async function eventually(predicate: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Sends until the answer is not a 429 (a quota slot frees as its turn ends), for up to 20 s; the last status. */
export async function acceptedSoon(send: () => Promise<{ status: number }>, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status } = await send();
    if (status !== 429 || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
