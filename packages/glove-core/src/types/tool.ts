import type { z } from "zod";
import type { ToolResultData } from "./message.js";
import type { CallWaits } from "./waits.js";

/** Delegation callback handed to tools (e.g. to a renderer or another system). */
export type HandOverFunction = (input: unknown) => Promise<unknown>;

/**
 * What a tool may return. A `ToolResultData` (an object whose `status` is
 * "success", "error" or "aborted") is used as is; any other value is wrapped
 * as `{ status: "success", data: value }`.
 */
export type ToolReturn = ToolResultData | string | number | boolean | null | undefined | object;

/** How a gated tool fares in a serverMode Glove that has no permissionPolicy to ask. */
export type ServerModeWithoutPolicy = "deny" | "allow";

/** Which call a tool run answers (the Executor passes it; plain callers may omit it). */
export interface ToolRunContext {
  /** The model's id for this call. */
  callId?: string;
  /** The call's stored questions and steps, when the store keeps them and the tool is durable. */
  waits?: CallWaits;
}

/** The runtime representation of a tool, as the Executor runs it. */
export interface Tool<I = unknown> {
  name: string;
  description: string;
  /** Zod schema: validated before every call and turned into JSON Schema for the model. */
  input_schema?: z.ZodType<I>;
  /** Raw JSON Schema (MCP, OpenAPI…); skips local validation. */
  jsonSchema?: Record<string, unknown>;
  requiresPermission?: boolean;
  /** What a serverMode Glove without a permissionPolicy does with this gated tool; see GloveFoldArgs. */
  serverModeWithoutPolicy?: ServerModeWithoutPolicy;
  /**
   * Whether the call may run again to resume a turn that waits for a person (durable questions).
   * Default true when the store keeps questions; false: its questions live in memory only and a
   * restart answers the call as interrupted.
   */
  durable?: boolean;
  /** Answers to the tool's questions must match this schema (checked also when a stored question is answered). */
  resolveSchema?: z.ZodType;
  /** Runs to completion even when the request is aborted; its real result is kept. */
  unAbortable?: boolean;
  /**
   * Safe to run again when the process running it died mid-call (glove-server's scale mode takes
   * the turn over): the call is re-run instead of being answered as interrupted. Only for tools
   * whose repeated effect is harmless (reads, idempotent writes).
   */
  rerunOnRecovery?: boolean;
  run(input: I, handOver?: HandOverFunction, signal?: AbortSignal, context?: ToolRunContext): Promise<ToolReturn>;
  generateSummary?(args: unknown): Promise<string>;
}
