/**
 * Attribute names: the OpenTelemetry GenAI semantic conventions (`gen_ai.*`, `error.type`) and
 * Glove's own (`glove.*`) for what the conventions do not cover.
 */
export const ATTR = {
  operationName: "gen_ai.operation.name",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  agentName: "gen_ai.agent.name",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  // Opt-in content (captureContent: true).
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  errorType: "error.type",
  // Glove's own.
  toolStatus: "glove.tool.status",
  toolSource: "glove.tool.source",
  mcpServer: "glove.mcp.server",
  subagent: "glove.subagent",
  subagentStatus: "glove.subagent.status",
  hookName: "glove.hook.name",
  skillName: "glove.skill.name",
  skillSource: "glove.skill.source",
  skillArgs: "glove.skill.args",
  compactionTokens: "glove.compaction.tokens",
  compactionSummary: "glove.compaction.summary",
} as const;

/** `gen_ai.operation.name` values. */
export const OPERATION = {
  invokeAgent: "invoke_agent",
  chat: "chat",
  executeTool: "execute_tool",
} as const;

/** Span event names. */
export const EVENT = {
  compactionStart: "glove.compaction.start",
  compactionEnd: "glove.compaction.end",
  hookInvoked: "glove.hook.invoked",
  skillInvoked: "glove.skill.invoked",
} as const;
