// The state, wire and session types live in glove-client (glove-vue's engine); the tool types
// are glove-client's, drawn with Vue.
export type {
  SlotStatus,
  WireSlot,
  TurnStatus,
  ErrorInfo,
  ConversationSnapshot,
  ConnectionState,
  SlotIssue,
  ClientSlot,
  SendStatus,
  GloveStats,
  GloveState,
  EntryBranch,
  UserEntry,
  AgentTextEntry,
  ToolStatus,
  ToolEntry,
  CompactionEntry,
  SkillEntry,
  TimelineEntry,
  ImageInput,
  SlotAnswerResult,
  BranchActionResult,
  FrameScheduler,
} from "glove-client";
export type * from "./tool.js";
