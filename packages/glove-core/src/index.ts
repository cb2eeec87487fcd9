/**
 * glove-core — browser-safe entry: no provider SDK and no `node:` import here.
 * Model adapters live under `glove-core/models/*`.
 */
export type * from "./types/index.js";

export { Glove } from "./glove.js";
export type { GloveParts } from "./glove.js";

export { Agent } from "./runtime/agent.js";
export type { AskOptions } from "./runtime/agent.js";
export { Context, splitAtLastCompaction } from "./runtime/context.js";
export { EventBus } from "./runtime/event-bus.js";
export type { EventSink } from "./runtime/event-bus.js";
export { Executor } from "./runtime/executor.js";
export type { ExecutorOptions } from "./runtime/executor.js";
export { Observer } from "./runtime/observer.js";
export { PromptMachine, summarizeOlderToolResults } from "./runtime/prompt-machine.js";
export type { PromptMachineOptions, PromptRunOptions } from "./runtime/prompt-machine.js";
export { PERMISSION_REQUEST_RENDERER, checkPermission } from "./runtime/permissions.js";
export {
  SlotAnswerError,
  callsToRerun,
  pendingQuestions,
  recordAnswer,
  recordStoredAnswer,
} from "./runtime/stored-questions.js";
export { storeKeepsWaits } from "./runtime/call-waits.js";
export type { WaitStore } from "./runtime/call-waits.js";
export type {
  GatedTool,
  PermissionAnswer,
  PermissionDecision,
  PermissionGateOptions,
  PermissionRequestInput,
} from "./runtime/permissions.js";
export { isToolResultData, normalizeToolReturn } from "./runtime/tool-result.js";

export { CompositePlugin } from "./plugins/composite.js";
export { ToolRegistryPlugin } from "./plugins/tool-registry.js";
export { toolFromFoldArgs } from "./glove-tools.js";
export { TasksPlugin, createTaskTool, TASK_TOOL_NAME } from "./plugins/tasks.js";
export type { TaskToolInput } from "./plugins/tasks.js";
export { InboxPlugin, createInboxTool, INBOX_TOOL_NAME } from "./plugins/inbox.js";
export type { InboxToolInput } from "./plugins/inbox.js";

export { Displaymanager } from "./display/display-manager.js";
export { ToolCallDisplay } from "./display/tool-call-display.js";
export { SlotBoard } from "./display/slot-board.js";
export type { WireSlot, SlotStatus, SlotEvents } from "./display/slot-board.js";
export type { ToolCallDisplayOptions } from "./display/tool-call-display.js";
export { MemoryStore, MemoryStoreError } from "./stores/memory-store.js";
export type { MemoryStoreOptions } from "./stores/memory-store.js";
export { planAppend, planAppendSync } from "./stores/append-plan.js";
export { recordModelCallInSteps, runsOwnModelCallSteps } from "./stores/model-call.js";
export type { AppendPlan, MessageRange, StoredPosition } from "./stores/append-plan.js";
export {
  INTERRUPTED_TOOL_MESSAGE,
  repairForInterruptedTools,
  unansweredToolCalls,
  unexpectedToolResults,
  answeredCallIds,
  currentTurnStart,
  needsTurnWindow,
  decodeMessage,
} from "./stores/message-integrity.js";
export { createRecordCodec, emptySessionRecord } from "./stores/record-codec.js";
export { MAX_KEY_BYTES, requireSessionId, subStoreSession } from "./stores/store-ids.js";
export { checkedPage, MAX_MESSAGE_PAGE } from "./stores/message-page.js";
export { TRACE_ATTR, TRACE_EVENT, TRACE_OPERATION, retryErrorType } from "./telemetry/trace-names.js";
export type { SubStoreInfo } from "./stores/store-ids.js";
export type {
  RecordCodec,
  RecordCodecOptions,
  StoreErrorCode,
  TaskRecord,
  InboxRecord,
  MessageRecord,
  SessionRecord,
} from "./stores/record-codec.js";
export { WAIT_COLUMNS } from "./stores/wait-records.js";
export type { WaitOutcomeRow, WaitRecord, WaitRow } from "./stores/wait-records.js";
export { StoreSessionError } from "./stores/store-session-error.js";
export { schemaVersionPolicy } from "./stores/schema-version.js";
export type { SchemaMigration, SchemaVersionPolicyOptions } from "./stores/schema-version.js";

export {
  GloveError,
  AbortError,
  ConfigurationError,
  DuplicateToolError,
  DisplaySlotClosedError,
  DisplaySlotRejectedError,
  ModelResponseError,
  ExtensionError,
  ProviderError,
} from "./errors.js";

// The provider table is browser-safe; each adapter loads on first use (dynamic import).
export { createAdapter, getAvailableProviders } from "./models/providers.js";
export type { CreateAdapterOptions } from "./models/providers.js";

export { DEFAULT_COMPACTION_INSTRUCTIONS, SUBAGENT_DISPATCH_TOOL_NAME } from "./constants.js";

export { parseTokens, placeholderFor } from "./extensions/tokens.js";
export type { DirectiveToken } from "./extensions/tokens.js";
export { formatSkillMessage } from "./extensions/skill-message.js";
export { createSkillInvokeTool, SkillsPlugin, SKILL_INVOKE_TOOL_NAME } from "./extensions/skills-plugin.js";
export { SkillRegistry } from "./extensions/skill-registry.js";
export { SubagentsPlugin } from "./extensions/subagents-plugin.js";
export { composeSystemPrompt, environmentBlock } from "./system-prompt.js";
export { Runtime } from "./host/runtime.js";
export type { RuntimeAgentConfig, RuntimeOptions } from "./host/runtime.js";

export { GloveStream } from "./glove-stream.js";
export { StructuredOutputError } from "./structured-output/structured-output-error.js";
export type { OutputIssue, StructuredOutputFailure } from "./structured-output/structured-output-error.js";
export type {
  OutputSchema,
  ProcessRequestOptions,
  RequestResult,
  StructuredRequestResult,
} from "./structured-output/types.js";
export { extractJson } from "./structured-output/parse-answer.js";
export { BranchError } from "./branches/branch-error.js";
export type { BranchRefusal } from "./branches/branch-error.js";
export { storeKeepsBranches, switchStoreBranch } from "./branches/branch-operations.js";
export type { BranchStore } from "./branches/branch-operations.js";
export { branchPoints, forkPoint, planSwitch } from "./branches/branch-tree.js";
export type { ForkOp } from "./branches/branch-tree.js";
export { checkBranchRewrite, decodeBranch } from "./stores/branch-records.js";
export type { BranchRow, CheckedRewrite } from "./stores/branch-records.js";
