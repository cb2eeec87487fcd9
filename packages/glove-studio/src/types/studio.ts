import type { InboxItem, StoredBranch, Task } from "glove-core";
import type {
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
