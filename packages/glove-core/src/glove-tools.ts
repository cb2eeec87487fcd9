import type { GloveFoldArgs, IGloveRunnable, Tool } from "./types/index.js";
import { ToolCallDisplay } from "./display/tool-call-display.js";
import { ConfigurationError } from "./errors.js";
import { ZOD3_ADVICE, zodSchemaKind } from "./zod-version.js";

/** Names every provider accepts for tools. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Turns fold arguments into the Executor's Tool. The display manager is read
 * when the tool runs, so tools always see the one current at call time (decision 9).
 * A pushed slot's renderer defaults to the tool's name.
 */
export function toolFromFoldArgs<I>(args: GloveFoldArgs<I>, glove: IGloveRunnable): Tool<unknown> {
  if (!args || typeof args.name !== "string" || !TOOL_NAME.test(args.name)) {
    throw new ConfigurationError(
      `fold() needs a tool name of 1–64 letters, digits, "_" or "-"; got ${JSON.stringify(args?.name)}.`,
    );
  }
  if (typeof args.do !== "function") {
    throw new ConfigurationError(`fold("${args.name}") needs a do(input, display, glove, signal) function.`);
  }
  if (typeof args.description !== "string") {
    throw new ConfigurationError(
      `fold("${args.name}") needs a description: the model reads it to decide when to call the tool.`,
    );
  }
  for (const field of ["inputSchema", "resolveSchema"] as const) {
    const schema = args[field];
    if (schema !== undefined && zodSchemaKind(schema) === "zod3") {
      throw new ConfigurationError(`fold("${args.name}"): ${field} is a zod 3 schema. ${ZOD3_ADVICE}`);
    }
    if (schema !== undefined && !isZodSchema(schema)) {
      throw new ConfigurationError(
        `fold("${args.name}"): ${field} must be a zod 4 schema (z.object({...})); got ${schema === null ? "null" : typeof schema}. For raw JSON Schema use jsonSchema instead.`,
      );
    }
  }
  const generate = args.generateToolSummary;
  const tool: Tool<I> = {
    name: args.name,
    description: args.description,
    input_schema: args.inputSchema,
    jsonSchema: args.jsonSchema,
    requiresPermission: args.requiresPermission,
    ...(args.serverModeWithoutPolicy ? { serverModeWithoutPolicy: args.serverModeWithoutPolicy } : {}),
    unAbortable: args.unAbortable,
    ...(args.rerunOnRecovery ? { rerunOnRecovery: true } : {}),
    ...(args.durable === false ? { durable: false } : {}),
    ...(args.resolveSchema ? { resolveSchema: args.resolveSchema } : {}),
    run: (input, _handOver, signal, context) => {
      // Each call sees the display through its own tag, so its slots carry the call's id and name.
      const display = new ToolCallDisplay(glove.displayManager, {
        toolName: args.name,
        toolCallId: context?.callId,
        displayStrategy: args.displayStrategy,
        resolveSchema: args.resolveSchema,
        signal,
        ...(context?.waits ? { waits: context.waits } : {}),
      });
      return args.do(input, display, glove, signal);
    },
    generateSummary: generate ? (summaryArgs) => generate.call(args, summaryArgs) : undefined,
  };
  return tool as Tool<unknown>;
}

/** What the runtime calls on schemas: checked at fold so a bad one fails now, not at the first call. */
function isZodSchema(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}
