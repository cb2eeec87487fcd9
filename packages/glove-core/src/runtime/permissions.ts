import type {
  CallWaits,
  DisplayManagerAdapter,
  NotifySubscribersFunction,
  PermissionPolicy,
  PermissionStatus,
  StoreAdapter,
  Tool,
} from "../types/index.js";
import { PERMISSION_REQUEST_RENDERER } from "../constants.js";
import { AbortError } from "../errors.js";
import { raceAbort } from "./abortable.js";

export { PERMISSION_REQUEST_RENDERER };

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
  /** Refuse when a prompt is unanswered after this many ms; undefined waits for the answer. */
  timeoutMs?: number;
  /** Where `permission_waiting` goes when a prompt opens that no display listener shows. */
  notify?: NotifySubscribersFunction;
}

export type PermissionDecision = { granted: true } | { granted: false; reason: string };

/** The parts of a tool the gate reads. */
export type GatedTool = Pick<Tool, "name" | "serverModeWithoutPolicy">;

/**
 * Fails closed (decision 12): granted only by the store, the policy, or an
 * explicit user answer. A store without permission methods never grants.
 */
export async function checkPermission(
  opts: PermissionGateOptions,
  tool: GatedTool,
  input: unknown,
  callId: string | undefined,
  signal?: AbortSignal,
  /** The call's stored waits: the prompt is then a stored question, answered also after a restart. */
  waits?: CallWaits,
): Promise<PermissionDecision> {
  const toolName = tool.name;
  // Checked before the store so apps without a policy keep exactly the old behaviour (decision 19).
  if (opts.serverMode && !opts.policy && tool.serverModeWithoutPolicy === "allow") return { granted: true };
  let status: PermissionStatus = (await opts.store?.getPermission?.(toolName)) ?? "unset";
  if (status === "unset" && opts.policy) status = await opts.policy(toolName, input);
  if (status === "granted") return { granted: true };
  if (status === "denied") {
    return {
      granted: false,
      reason: `Permission to run "${toolName}" was denied. Do not retry it; tell the user what you could not do.`,
    };
  }
  const dm = opts.displayManager();
  if (opts.serverMode || !dm) {
    return {
      granted: false,
      reason: `"${toolName}" needs permission, and this agent has no UI to ask (serverMode) and no permissionPolicy granted it. Grant it in the store or return "granted" for it from permissionPolicy.`,
    };
  }
  const answer = await askUser(opts, dm, { tool_name: toolName, input, call_id: callId }, signal, waits);
  if (answer === TIMED_OUT) {
    return {
      granted: false,
      reason: `Nobody answered the permission prompt for "${toolName}" within ${opts.timeoutMs} ms, so it did not run. Tell the user it needs their permission.`,
    };
  }
  const granted = typeof answer === "boolean" ? answer : Boolean(answer?.granted);
  if (typeof answer === "object" && answer?.remember && opts.store?.setPermission) {
    await opts.store.setPermission(toolName, granted ? "granted" : "denied");
  }
  return granted
    ? { granted: true }
    : { granted: false, reason: `The user declined permission to run "${toolName}". Do not retry it without asking.` };
}

const TIMED_OUT = Symbol("permission prompt timed out");

async function askUser(
  opts: PermissionGateOptions,
  dm: DisplayManagerAdapter,
  input: PermissionRequestInput,
  signal?: AbortSignal,
  waits?: CallWaits,
): Promise<PermissionAnswer | undefined | typeof TIMED_OUT> {
  if (signal?.aborted) throw new AbortError();
  const before = new Set(dm.stack.map((s) => s.id));
  const push = { renderer: PERMISSION_REQUEST_RENDERER, input, toolName: input.tool_name, toolCallId: input.call_id };
  // Nobody shows the prompt: say so instead of waiting in silence. Not denied, because the
  // answer may still come through resolve(), possibly from another process.
  const warnIfUnwatched = (slotId: string | undefined) => {
    if (dm.listeners.size === 0) reportUnwatched(opts, input, slotId);
  };
  const wait = waits
    ? waits.question<PermissionAnswer>(dm, push, warnIfUnwatched)
    : dm.pushAndWait<PermissionRequestInput, PermissionAnswer>(push);
  // Found as the permission slot that was not there before: display managers may store a
  // parsed copy of the input, or push asynchronously.
  const findSlotId = () =>
    dm.stack.find(
      (s) =>
        s.renderer === PERMISSION_REQUEST_RENDERER &&
        !before.has(s.id) &&
        (s.input as Partial<PermissionRequestInput> | undefined)?.call_id === input.call_id,
    )?.id;
  const takeDown = () => {
    const slotId = findSlotId();
    if (slotId) dm.removeSlot(slotId);
  };
  if (!waits) warnIfUnwatched(findSlotId());
  const answer = opts.timeoutMs === undefined ? wait : withTimeout(wait, opts.timeoutMs, takeDown);
  return signal ? raceAbort(answer, signal, takeDown) : answer;
}

/** Settles with `work`, or with TIMED_OUT after `ms` (then `onTimeout` takes the prompt down). */
function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([work, timeout]).then(
    (value) => {
      clearTimeout(timer);
      if (value === TIMED_OUT) {
        work.catch(() => undefined);
        onTimeout();
      }
      return value;
    },
    (error: unknown) => {
      clearTimeout(timer);
      throw error;
    },
  );
}

function reportUnwatched(opts: PermissionGateOptions, input: PermissionRequestInput, slotId: string | undefined): void {
  const call = input.call_id ? ` (call ${input.call_id})` : "";
  const answerWith = slotId
    ? `glove.displayManager.resolve("${slotId}", true) (or false)`
    : `glove.displayManager.resolve(slotId, true) (or false) with the id of its "${PERMISSION_REQUEST_RENDERER}" slot in glove.displayManager.stack`;
  const message =
    `"${input.tool_name}"${call} is waiting for permission, and nothing subscribes to the display manager to show the prompt. ` +
    `Answer it with ${answerWith}, subscribe a UI with glove.displayManager.subscribe(...), or configure permissionPolicy ` +
    `(or permissionTimeoutMs to refuse unanswered prompts).`;
  console.warn(`[glove] ${message}`);
  void opts.notify?.("permission_waiting", {
    tool_name: input.tool_name,
    ...(input.call_id !== undefined ? { call_id: input.call_id } : {}),
    ...(slotId !== undefined ? { slot_id: slotId } : {}),
    message,
  });
}
