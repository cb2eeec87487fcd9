/** Storage inspection (Glove Studio's data): paged listings, message pages and turn traces. */
export type {
  ConversationPage,
  ConversationQuery,
  ConversationStatus,
  ConversationSummary,
  MessagePage,
  StorageInspector,
  TraceSpan,
  TurnTrace,
  TurnTraceStatus,
  TurnTraceStore,
} from "./types.js";
export type { RecordedAnswer, RecordedCall, RecordedRequest, RequestDiff, ResolvedRequest } from "./recorded-calls.js";
export { isRecordedCall, resolveRecordedCall } from "./resolve-call.js";
export { InspectError } from "./inspect-error.js";
export type { InspectErrorCode } from "./inspect-error.js";
export { MAX_INSPECT_PAGE } from "./conversation-query.js";
export { DEFAULT_TRACE_LIMITS } from "./trace-limits.js";
export type { TraceLimits } from "./trace-limits.js";
export { openInspector } from "./open-inspector.js";
export type { InspectorSource, OpenedInspector } from "./open-inspector.js";
