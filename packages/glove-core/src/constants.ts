/**
 * Renderer name of the slot that asks the user for a tool permission. Here, not in
 * runtime/permissions.ts, so a UI that only needs the name does not bundle the permission gate.
 */
export const PERMISSION_REQUEST_RENDERER = "permission_request";

/** Tool name of the auto-registered subagent dispatch tool. */
export const SUBAGENT_DISPATCH_TOOL_NAME = "glove_invoke_subagent";

/**
 * What the model is asked when it summarises the conversation, unless `compaction_config` says
 * otherwise: keep what the rest of the conversation depends on, since the summary replaces it.
 */
export const DEFAULT_COMPACTION_INSTRUCTIONS =
  "Summarize the conversation so far. Keep decisions, open questions, facts the user gave and the state of any work.";
