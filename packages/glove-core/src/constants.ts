/** Tool name of the auto-registered subagent dispatch tool. */
export const SUBAGENT_DISPATCH_TOOL_NAME = "glove_invoke_subagent";
