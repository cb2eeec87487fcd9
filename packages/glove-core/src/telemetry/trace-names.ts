/**
 * Names for tracing a Glove's work, shared by every tracer (glove-otel's spans, glove-server's
 * stored turn traces): the OpenTelemetry GenAI semantic conventions (`gen_ai.*`, `error.type`)
 * and Glove's own (`glove.*`) for what the conventions do not cover.
 */
export const TRACE_ATTR = {
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
  /** The subagents a span ran in, outermost first, joined with "/". */
  agentPath: "glove.agent_path",
  /** A tool call that ran again when its turn resumed after a person answered. */
  resumed: "glove.resumed",
  /** On a call's span in a turn that left it waiting for a person: the turn it went on in. */
  continuedIn: "glove.continued_in",
  /** How many times a model call was sent again (on the `chat` span). */
  retries: "glove.retries",
  // On each retry (a span event in glove-otel; the last one's reason on a stored span).
  retryAttempt: "glove.retry.attempt",
  retryDelayMs: "glove.retry.delay_ms",
  retryReason: "glove.retry.reason",
  httpStatus: "http.response.status_code",
} as const;

/** Names of span events. */
export const TRACE_EVENT = {
  /** A model call failed in a way worth another try and is sent again after a wait. */
  modelRetry: "glove.model.retry",
} as const;

/**
 * The `error.type` of a retried failure: the provider's code when it sent one, else the HTTP
 * status, else "network_error" (no answer came).
 */
export function retryErrorType(retry: { status: number; code?: string }): string {
  return retry.code ?? (retry.status > 0 ? String(retry.status) : "network_error");
}

/** `gen_ai.operation.name` values; a span's name is the operation, a space, then its subject. */
export const TRACE_OPERATION = {
  invokeAgent: "invoke_agent",
  chat: "chat",
  executeTool: "execute_tool",
} as const;
