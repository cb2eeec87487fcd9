import type { DisplayManagerAdapter } from "glove-core";

/**
 * The displays of the bridged tool calls running on each MCP client. MCP does not say which
 * `tools/call` a server's elicitation belongs to; while exactly one call runs on the client it is
 * that one, and the elicitation is asked through that call's display: tagged with the call, and
 * stored when the call is durable (docs/decisions/0023). With none or several running, the Glove's
 * display asks, unrecorded.
 */
const running = new WeakMap<object, Set<DisplayManagerAdapter>>();

/** Runs `call` (a bridged tool's `tools/call`) with `display` as a running call of `client`. */
export async function whileCalling<T>(
  client: object,
  display: DisplayManagerAdapter,
  call: () => Promise<T>,
): Promise<T> {
  let calls = running.get(client);
  if (!calls) running.set(client, (calls = new Set()));
  calls.add(display);
  try {
    return await call();
  } finally {
    calls.delete(display);
  }
}

/** The display of the only bridged call running on `client`, if exactly one is. */
export function soleCallDisplay(client: object): DisplayManagerAdapter | undefined {
  const calls = running.get(client);
  return calls?.size === 1 ? calls.values().next().value : undefined;
}
