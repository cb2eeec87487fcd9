import type { DisplayManagerAdapter, Slot, UnsubscribeFn } from "glove-core";
import type { ZodType } from "zod";

/** One slot; removed (and the wait ends) when the server cancels the request or the connection drops. */
export async function askOnce<I extends { serverId: string; message: string }, A>(
  dm: DisplayManagerAdapter,
  renderer: string,
  input: I,
  schema: ZodType<A>,
  signal: AbortSignal,
): Promise<A> {
  const before = new Set(dm.stack.map((s) => s.id));
  const wait = dm.pushAndWait<I, A>({
    renderer,
    input,
    resolveSchema: schema,
    displayStrategy: "hide-on-complete",
  });
  // Displaymanager adds a plain slot synchronously; a stored question (a durable call's) comes
  // once the store has it, so on abort it is looked for by its request, now and when it shows.
  const pushed = dm.stack.find((s) => !before.has(s.id) && s.renderer === renderer)?.id;
  const ours = (slot: Slot<unknown>) =>
    pushed !== undefined
      ? slot.id === pushed
      : !before.has(slot.id) && slot.renderer === renderer && sameRequest(slot.input, input);
  const takeDown = () => {
    for (const slot of dm.stack.filter(ours)) dm.removeSlot(slot.id);
  };
  let watching: UnsubscribeFn | undefined;
  const onAbort = () => {
    takeDown();
    watching ??= dm.subscribe(takeDown);
  };
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await wait;
  } finally {
    signal.removeEventListener("abort", onAbort);
    watching?.();
  }
}

function sameRequest(shown: unknown, input: { serverId: string; message: string }): boolean {
  if (shown === input) return true;
  const other = shown as Partial<{ serverId: string; message: string }> | null;
  return (
    typeof shown === "object" && other !== null && other.serverId === input.serverId && other.message === input.message
  );
}
