import type {
  DisplayManagerAdapter,
  PermissionPolicy,
  PermissionStatus,
  StoreAdapter,
} from "../types/index.js";
import { AbortError } from "../errors.js";
import { raceAbort } from "./abortable.js";

/** Renderer name of the slot that asks the user for a tool permission. */
export const PERMISSION_REQUEST_RENDERER = "permission_request";

/** What the `permission_request` slot receives. */
export interface PermissionRequestInput {
  tool_name: string;
  input: unknown;
  call_id?: string;
}

/**
 * What the UI resolves the slot with: a boolean, or an object whose `remember`
 * asks to store the answer for later calls.
 */
export type PermissionAnswer = boolean | { granted: boolean; remember?: boolean };

export interface PermissionGateOptions {
  store?: StoreAdapter;
  displayManager: () => DisplayManagerAdapter | undefined;
  serverMode: boolean;
  policy?: PermissionPolicy;
}

export type PermissionDecision = { granted: true } | { granted: false; reason: string };

/**
 * Fails closed (decision 12): granted only by the store, the policy, or an
 * explicit user answer. A store without permission methods never grants.
 */
export async function checkPermission(
  opts: PermissionGateOptions,
  toolName: string,
  input: unknown,
  callId: string | undefined,
  signal?: AbortSignal,
): Promise<PermissionDecision> {
  let status: PermissionStatus = (await opts.store?.getPermission?.(toolName)) ?? "unset";
  if (status === "unset" && opts.policy) status = await opts.policy(toolName, input);
  if (status === "granted") return { granted: true };
  if (status === "denied") {
    return { granted: false, reason: `Permission to run "${toolName}" was denied. Do not retry it; tell the user what you could not do.` };
  }
  const dm = opts.displayManager();
  if (opts.serverMode || !dm) {
    return {
      granted: false,
      reason: `"${toolName}" needs permission, and this agent has no UI to ask (serverMode) and no permissionPolicy granted it. Grant it in the store or configure permissionPolicy.`,
    };
  }
  const answer = await askUser(dm, { tool_name: toolName, input, call_id: callId }, signal);
  const granted = typeof answer === "boolean" ? answer : Boolean(answer?.granted);
  if (typeof answer === "object" && answer?.remember && opts.store?.setPermission) {
    await opts.store.setPermission(toolName, granted ? "granted" : "denied");
  }
  return granted
    ? { granted: true }
    : { granted: false, reason: `The user declined permission to run "${toolName}". Do not retry it without asking.` };
}

async function askUser(
  dm: DisplayManagerAdapter,
  input: PermissionRequestInput,
  signal?: AbortSignal,
): Promise<PermissionAnswer | undefined> {
  if (signal?.aborted) throw new AbortError();
  const before = new Set(dm.stack.map((s) => s.id));
  const wait = dm.pushAndWait<PermissionRequestInput, PermissionAnswer>({
    renderer: PERMISSION_REQUEST_RENDERER,
    input,
    toolName: input.tool_name,
    toolCallId: input.call_id,
  });
  if (!signal) return wait;
  // Found at abort time as the permission slot that was not there before: display
  // managers may store a parsed copy of the input, or push asynchronously.
  const findSlotId = () =>
    dm.stack.find(
      (s) =>
        s.renderer === PERMISSION_REQUEST_RENDERER &&
        !before.has(s.id) &&
        (s.input as Partial<PermissionRequestInput> | undefined)?.call_id === input.call_id,
    )?.id;
  return raceAbort(wait, signal, () => {
    const slotId = findSlotId();
    if (slotId) dm.removeSlot(slotId);
  });
}
