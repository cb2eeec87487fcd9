import type { BranchInfo, InboxItem, StoredBranch, Task } from "glove-core";
import type { StudioAuditEntry, StudioAuditLog } from "./audit.js";
import type {
  AgentVariant,
  ConversationSummary,
  Principal,
  ServerStorage,
  SlotAnswer,
  StorageInspector,
  TurnTrace,
} from "glove-server";

/** What the studio reads: the inspector (paged lists, traces) and the storage (records, per-conversation stores). */
export interface StudioData {
  inspector: StorageInspector;
  storage: ServerStorage;
}

/** What the studio may do to a conversation; only a studio mounted in a glove-server has it. */
export interface StudioActions {
  answer(
    conversationId: string,
    slotId: string,
    answer: SlotAnswer,
  ): Promise<{ slotId: string; status: "resolved" | "rejected" }>;
  abort(conversationId: string): Promise<{ aborted: boolean; turnId?: string; status?: string }>;
  /** A new message `{ text }`, as its owner would send it. */
  send(conversationId: string, body: Record<string, unknown>): Promise<{ turnId: string }>;
  regenerate(conversationId: string): Promise<{ turnId: string }>;
  /** Replaces the user message `messageId` with `{ text }` and continues from it. */
  edit(conversationId: string, messageId: string, body: Record<string, unknown>): Promise<{ turnId: string }>;
  branches(conversationId: string): Promise<BranchInfo>;
  switchBranch(conversationId: string, messageId: string): Promise<BranchInfo>;
  /** A new conversation of the acting user's with the messages up to `at`, optionally on a variant. */
  fork(conversationId: string, request: ForkRequest): Promise<ForkResult>;
  audit(query: { conversationId?: string; limit: number }): Promise<StudioAuditEntry[]>;
}

/** POST api/conversations/:id/fork — where to fork and on what. */
export interface ForkRequest {
  /** The index of the last message kept (a tool call keeps its results). */
  at: number;
  /** One of `createStudio({ variants })`'s names; default: the conversation's own agent. */
  variant?: string;
}

/** What a fork answers: the new conversation. */
export interface ForkResult {
  id: string;
  agent: string;
  owner: string;
  /** How many messages were copied. */
  messages: number;
}

/** A question stored for a person (a display slot that waits), with its answer once given. */
export interface StudioQuestion {
  id: string;
  toolCallId: string;
  toolName: string;
  renderer: string;
  input: unknown;
  status: "pending" | "resolved" | "rejected" | "cancelled";
  answer?: unknown;
  createdAt: string;
  settledAt: string | null;
}

/** GET api/conversations/:id — one conversation, besides its messages (paged separately). */
export interface ConversationDetail {
  conversation: ConversationSummary;
  tasks: Task[];
  inbox: InboxItem[];
  questions: StudioQuestion[];
  /** The newest turn traces (more with api/conversations/:id/traces?before=). */
  traces: TurnTrace[];
  messageCount: number;
  /** Stretches of messages set aside by regenerating or editing (stores that keep branches). */
  branches: StoredBranch[];
}

/** GET api/info — what the page may offer. */
export interface StudioInfo {
  mode: "standalone" | "mounted";
  /** Answering questions and aborting turns (mounted only: the server's hosting resumes the turn). */
  canAct: boolean;
  /** The variants a fork may run on (`createStudio({ variants })`), mounted only. */
  variants?: string[];
  /** Where the data comes from, for the header (a file name or a database, never a password). */
  source: string;
}

/** Options of `createStudio`, the extension that mounts the studio in a glove-server. */
export interface CreateStudioOptions {
  /**
   * Required: who may open the studio. It shows every owner's conversations, so an app's users
   * must not all get in: e.g. `(principal) => principal.role === "admin"`. Others get a 403.
   */
  allow: (principal: Principal) => boolean | Promise<boolean>;
  /** The path segment below the server's basePath. Default "studio". */
  path?: string;
  /** Default: the server's storage's inspector. */
  inspector?: StorageInspector;
  /** The built UI. Default: the one shipped in this package. */
  uiDir?: string;
  /**
   * Agents a fork may run on instead of the conversation's own: `{ name: { agent, override } }`,
   * the `AgentOverride` glove-evals uses (another model, system prompt, tools). A fork's `agent` is
   * the variant's name, so it keeps running on the variant after a restart with the same options.
   */
  variants?: Record<string, AgentVariant>;
  /**
   * Where actions on other principals' conversations are recorded (who, what, when, which).
   * Default: the newest 10 000 in memory (`memoryAuditLog`); pass a durable one to keep them.
   */
  audit?: StudioAuditLog;
}

/** Options of `startStudio`, the standalone studio on node:http. */
export interface StartStudioOptions {
  storage: ServerStorage;
  /** Default: the storage's inspector. */
  inspector?: StorageInspector;
  /** Default 4983; 0 picks a free port. */
  port?: number;
  /** Shown in the page's header. */
  source?: string;
  uiDir?: string;
}

/** A running standalone studio. */
export interface RunningStudio {
  url: string;
  port: number;
  close(): Promise<void>;
}
