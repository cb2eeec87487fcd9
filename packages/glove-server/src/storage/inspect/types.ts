import type { Message } from "glove-core";
import type { ConversationRecord } from "../conversation-record.js";
import type { RecordedCall } from "./recorded-calls.js";

/**
 * Timing of one turn, recorded by glove-server as the turn runs and kept in the same storage as
 * the conversation (bounded per turn and per conversation). Span names and attribute keys follow
 * the OpenTelemetry GenAI conventions so a trace read here matches one exported by glove-otel.
 */
export interface TurnTrace {
  conversationId: string;
  turnId: string;
  /** ISO-8601 */
  startedAt: string;
  /** ISO-8601; null while the turn runs. */
  endedAt: string | null;
  status: TurnTraceStatus;
  /** In start order. A span's parent is another span of the same turn, or null for top-level. */
  spans: TraceSpan[];
  /** True when spans past the per-turn bound were dropped (the counts in `dropped` say how many). */
  truncated: boolean;
  dropped?: number;
  /** Set when the turn ended in an error: the code turn_end carried (e.g. "GLOVE_TURN_FAILED"). */
  error?: { code: string };
  /** The request inspector's record of each model call, in start order (absent when it is off). */
  calls?: RecordedCall[];
}

export type TurnTraceStatus = "running" | "completed" | "aborted" | "error" | "waiting" | "interrupted";

export interface TraceSpan {
  spanId: string;
  parentSpanId: string | null;
  /** e.g. "chat gpt-4o-mini", "execute_tool get_weather", "invoke_agent researcher". */
  name: string;
  kind: "model_call" | "tool_call" | "subagent";
  /** Epoch milliseconds. */
  startMs: number;
  /** null while running. */
  durationMs: number | null;
  status: "ok" | "error" | "aborted" | "running";
  /**
   * OpenTelemetry GenAI keys where one exists: gen_ai.request.model, gen_ai.usage.input_tokens,
   * gen_ai.usage.output_tokens, gen_ai.response.finish_reasons, gen_ai.tool.name,
   * gen_ai.tool.call.id, error.type; Glove's own under "glove.": glove.retries (a model call's
   * retries), glove.retry.reason (the last retry's cause), glove.agent_path.
   */
  attributes: Record<string, string | number | boolean>;
}

/** How much turn timing a storage keeps: spans per turn and turns per conversation, and the request log. */
export interface TraceLimits {
  /** Spans kept per turn; later ones are counted in `dropped`. Default 1000. */
  spansPerTurn: number;
  /** Traces kept per conversation, the newest; older ones are deleted as new ones are saved. Default 200. */
  tracesPerConversation: number;
  /**
   * Keep each model call's request and answer (the Studio's request inspector). Default true;
   * false records none (privacy): the timing of calls, retries and first tokens is still kept.
   */
  requestLog: boolean;
  /** Characters of recorded requests and answers kept per turn; calls past it keep their timing only. Default 1 000 000. */
  requestCharsPerTurn: number;
}

/** Where turn traces are kept; each ServerStorage of this repo implements it. */
export interface TurnTraceStore {
  /** What the store keeps; the recorder reads `requestLog` so an opted-out storage records nothing. */
  readonly limits?: TraceLimits;
  /** Inserts or replaces the trace of (conversationId, turnId). */
  save(trace: TurnTrace): Promise<void>;
  get(conversationId: string, turnId: string): Promise<TurnTrace | undefined>;
  /** Newest first. `before` is a turnId cursor from a previous page. */
  list(conversationId: string, page: { limit: number; before?: string }): Promise<TurnTrace[]>;
}

/** Filters of the conversation list (all optional, combined with AND). */
export interface ConversationQuery {
  /** Matched case-insensitively against the title and the id. */
  text?: string;
  /** Exactly this conversation (an indexed lookup: its summary and status without a scan). */
  id?: string;
  agent?: string;
  owner?: string;
  status?: ConversationStatus;
  /** ISO-8601 bounds on updatedAt. */
  updatedFrom?: string;
  updatedTo?: string;
  limit: number;
  /** Opaque, from a previous page's nextCursor. */
  cursor?: string;
}

export type ConversationStatus = "running" | "waiting" | "error" | "idle";

export interface ConversationSummary extends ConversationRecord {
  status: ConversationStatus;
}

export interface ConversationPage {
  items: ConversationSummary[];
  nextCursor: string | null;
  /** How many match the filters (all pages), and their token totals. */
  total: number;
  tokens: { in: number; out: number };
}

export interface MessagePage {
  /** Messages [offset, offset + limit) of the conversation, oldest first. */
  messages: Message[];
  offset: number;
  total: number;
}

/** Read access for tools that look at stored conversations (Glove Studio), paged for large data. */
export interface StorageInspector {
  listConversations(query: ConversationQuery): Promise<ConversationPage>;
  messages(conversationId: string, page: { offset: number; limit: number }): Promise<MessagePage>;
  traces: TurnTraceStore;
}
