import type { ToolResultData, ToolReturn } from "../types/index.js";

const STATUSES = new Set(["success", "error", "aborted"]);

/** True for objects that already are a ToolResultData (a recognised `status`). */
export function isToolResultData(value: unknown): value is ToolResultData {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    STATUSES.has((value as { status?: unknown }).status as string)
  );
}

/**
 * A tool may return a ToolResultData or any plain value; plain values become
 * success data. `data` is always present so adapters can rely on it.
 */
export function normalizeToolReturn(value: ToolReturn): ToolResultData {
  if (isToolResultData(value)) return { ...value, data: value.data === undefined ? null : value.data };
  return { status: "success", data: value === undefined ? null : value };
}

export function errorResult(message: string, data: unknown = null): ToolResultData {
  return { status: "error", data, message };
}

export function abortedResult(toolName: string): ToolResultData {
  return {
    status: "aborted",
    data: null,
    message: `The request was aborted before "${toolName}" finished; it did not complete.`,
  };
}
