import type { HandOverFunction, Tool, ToolCall, ToolResultData, ToolReturn } from "../types/index.js";
import { AbortError } from "../errors.js";
import type { CompositePlugin } from "../plugins/composite.js";
import { abortableSleep, raceAbort } from "./abortable.js";
import { StoredCallWaits, storeKeepsWaits } from "./call-waits.js";
import { checkPermission, type PermissionGateOptions } from "./permissions.js";
import { abortedResult, errorResult, normalizeToolReturn } from "./tool-result.js";

export interface InvocationOptions extends PermissionGateOptions {
  plugins: CompositePlugin;
  maxRetries: number;
  /** First retry delay; doubles each attempt. */
  retryBaseDelayMs: number;
  agent: string;
  conversationId: () => string;
  /** Tool names the agent may call; undefined means every tool. */
  scope: () => ReadonlySet<string> | undefined;
}

/**
 * Runs one tool call to a ToolResultData. Never throws: every failure (unknown
 * tool, bad JSON, invalid input, denied permission, thrown error, abort) is a
 * result the model can read, so history always pairs calls with results.
 */
export async function invokeTool(
  opts: InvocationOptions,
  call: ToolCall,
  handOver: HandOverFunction | undefined,
  signal: AbortSignal | undefined,
): Promise<ToolResultData> {
  const scope = opts.scope();
  const found = opts.plugins.findTool(call.tool_name);
  if (!found || (scope && !scope.has(call.tool_name))) {
    const names = opts.plugins
      .tools()
      .map((t) => t.name)
      .filter((n) => !scope || scope.has(n));
    const list = names.length ? names.join(", ") : "(none)";
    return errorResult(
      found
        ? `Tool "${call.tool_name}" is outside the scope of agent "${opts.agent}" and was not run. Tools you may use: ${list}.`
        : `Unknown tool "${call.tool_name}". Available tools: ${list}. Call one of these by its exact name.`,
    );
  }
  const { tool } = found;
  if (signal?.aborted && !tool.unAbortable) return abortedResult(tool.name);

  const parsed = parseInput(tool, call.input_args);
  if (!parsed.ok) return errorResult(parsed.message, { issues: parsed.issues });

  // A durable call keeps its questions in the store, so it can run again to resume after a restart.
  const store = opts.store;
  const waits =
    storeKeepsWaits(store) && tool.durable !== false && call.id
      ? new StoredCallWaits(store, { id: call.id, toolName: tool.name }, signal)
      : undefined;
  try {
    if (tool.requiresPermission) {
      const decision = await checkPermission(opts, tool, parsed.value, call.id, signal, waits);
      if (!decision.granted) return errorResult(decision.reason);
    }
  } catch (error) {
    if (signal?.aborted || AbortError.isInstance(error)) return abortedResult(tool.name);
    return errorResult(`Could not get permission to run "${tool.name}": ${describe(error)}`);
  }

  waits?.markToolStart();
  return runWithRetries(opts, tool, call, parsed.value, handOver, signal, waits);
}

type Parsed =
  { ok: true; value: unknown } | { ok: false; message: string; issues: Array<{ path: string; message: string }> };

function parseInput(tool: Tool<unknown>, raw: unknown): Parsed {
  let input = raw ?? {};
  // Adapters pass arguments they could not parse through as the raw string.
  if (typeof input === "string") {
    try {
      input = JSON.parse(input);
    } catch {
      const preview = raw as string;
      return {
        ok: false,
        message: `The arguments for "${tool.name}" were not valid JSON (${preview.length > 200 ? `${preview.slice(0, 200)}…` : preview}). Call the tool again with a JSON object matching its schema.`,
        issues: [{ path: "", message: "invalid JSON" }],
      };
    }
  }
  if (!tool.input_schema) return { ok: true, value: input };
  const result = tool.input_schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((i) => ({
    path: i.path.map(String).join(".") || "(root)",
    message: i.message,
  }));
  return {
    ok: false,
    message: `Invalid input for "${tool.name}": ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}. Fix these fields and call the tool again.`,
    issues,
  };
}

async function runWithRetries(
  opts: InvocationOptions,
  tool: Tool<unknown>,
  call: ToolCall,
  input: unknown,
  handOver: HandOverFunction | undefined,
  signal: AbortSignal | undefined,
  waits: StoredCallWaits | undefined,
): Promise<ToolResultData> {
  // unAbortable tools are not handed the signal: they must finish what they started.
  const toolSignal = tool.unAbortable ? undefined : signal;
  for (let attempt = 0; ; attempt++) {
    try {
      waits?.beginAttempt();
      const output = await raceAbort(runOnce(opts, tool, call, input, handOver, toolSignal, waits), toolSignal);
      const result = normalizeToolReturn(output);
      await attachSummary(tool, result);
      return result;
    } catch (error) {
      if (toolSignal?.aborted) return abortedResult(tool.name);
      // Never retry once the request is aborted, even for an unAbortable tool.
      if (attempt >= opts.maxRetries || signal?.aborted) {
        const tries = attempt + 1;
        return errorResult(
          `Tool "${tool.name}" failed${tries > 1 ? ` after ${tries} attempts` : ""}: ${describe(error)}`,
        );
      }
      const delay = opts.retryBaseDelayMs * 2 ** attempt;
      if (!(await abortableSleep(delay, toolSignal))) return abortedResult(tool.name);
    }
  }
}

function runOnce(
  opts: InvocationOptions,
  tool: Tool<unknown>,
  call: ToolCall,
  input: unknown,
  handOver: HandOverFunction | undefined,
  signal: AbortSignal | undefined,
  waits: StoredCallWaits | undefined,
): Promise<ToolReturn> {
  const dispatched = opts.plugins.dispatch(tool.name, {
    call,
    input,
    agent: opts.agent,
    conversationId: opts.conversationId(),
    signal,
    handOver,
  });
  return (
    dispatched ??
    Promise.resolve().then(() => tool.run(input, handOver, signal, { callId: call.id, ...(waits ? { waits } : {}) }))
  );
}

async function attachSummary(tool: Tool<unknown>, result: ToolResultData): Promise<void> {
  if (!tool.generateSummary || result.generateSummaryArgs === undefined) return;
  try {
    result.summary = await tool.generateSummary(result.generateSummaryArgs);
  } catch (error) {
    console.error(`[glove] generateToolSummary of "${tool.name}" failed; keeping the full result.`, error);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
}
