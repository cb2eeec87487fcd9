import { ConfigurationError } from "glove-core";
import type { AgentsOption } from "./agents/agent-source.js";
import type { ServerExtension } from "./extensions/server-extension.js";
import type { Authenticate } from "./security/authenticate.js";
import { hostPolicy, type HostAllowed } from "./security/host-check.js";
import type { ServerScale } from "./scale/server-scale.js";
import type { ConversationCatalog, ServerStorage, StoreFactory } from "./storage/types.js";
import type { GloveServerRetention } from "./retention/retention-options.js";

/** Size limits on what clients may send, so one caller cannot exhaust the server. */
export interface GloveServerLimits {
  /** Largest JSON body accepted, in bytes. Default 1 MiB. */
  bodyBytes?: number;
  /** Longest message text, in characters. Default 100 000. */
  textChars?: number;
  /** Turns waiting behind a running one when `busy` is "queue". Default 8. */
  queuedTurns?: number;
  /** Conversations one principal may keep (stored, not only live); more answer 429 until some are deleted. Default 1000. `Infinity`: no limit. */
  conversationsPerPrincipal?: number;
  /** New conversations per principal per minute, in bursts up to that; more answer 429 with retry-after. Default 30. */
  conversationsPerMinute?: number;
  /** Turns one principal may have running or queued at once, over all its conversations; more answer 429. Default 4. */
  concurrentTurnsPerPrincipal?: number;
  /** Messages (turns started) per principal per minute, in bursts up to that; more answer 429 with retry-after. Default 30. */
  turnsPerMinute?: number;
}

/** How the event stream behaves: heartbeats, reconnect hints, replay buffers and inbox polling. */
export interface GloveServerEventOptions {
  /** A comment line after this much silence keeps proxies from closing the stream. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Reconnect delay suggested to EventSource clients. Default 1000 ms. */
  retryMs?: number;
  /** Events kept per conversation for Last-Event-ID replay. Default 5000. */
  replayEvents?: number;
  /** Characters kept per conversation for replay (bounded memory: readers further behind get a snapshot). Default 262 144. */
  replayChars?: number;
  /**
   * Characters kept per conversation for connected readers that have not read them yet, beyond
   * the replay window: a large tool result or a burst of deltas never pushes a reader that keeps
   * up out of its stream. A reader further behind (one that stopped reading) gets a snapshot.
   * Default 16 MiB (64 × replayChars).
   */
  readerLagChars?: number;
  /** How often open conversations re-read their inbox (items resolved by other processes). Default 2000 ms. */
  inboxPollMs?: number;
  /**
   * How long a conversation nobody reads keeps the frames of its last turn for Last-Event-ID
   * replay (a client back from a network blip gets exactly what it missed). After this, with no
   * turn running, no stream open and nothing shown only in memory, it hibernates: its Glove and
   * frames are dropped and rebuilt from the store on the next request; a reconnect then starts
   * from a snapshot. Default 30 000 ms; at or above `idleTimeoutMs` it never hibernates.
   */
  replayWindowMs?: number;
}

/** Options of `createGloveServer`: the agents, who may call them, where conversations live and the limits. */
export interface GloveServerOptions {
  /** Named agent factories, or a glove-core Runtime. The first name is the default agent. */
  agents: AgentsOption;
  /** Required: resolves the caller, or null for a 401. There is no default. */
  authenticate: Authenticate;
  /**
   * Where conversations live: a ServerStorage (`sqliteStorage()`, `postgresStorage()` from
   * "glove-server/postgres", `memoryStorage()`), or a store factory per conversation (the
   * conversation list then stays in SQLite under `dataDir`). Default: `sqliteStorage()` in `dataDir`.
   */
  store?: ServerStorage | StoreFactory;
  /** The conversation list to use with a store factory. */
  catalog?: ConversationCatalog;
  /** Folder of the embedded SQLite file. Default ".glove". */
  dataDir?: string;
  /** Where the routes are mounted, e.g. "/api/glove". Default "/". */
  basePath?: string;
  /** Origins (besides the server's own) allowed to make state-changing requests and CORS reads. */
  allowedOrigins?: string[];
  /**
   * Host names the server answers to (any port), e.g. `["app.example.com", "*.example.com"]`;
   * other names get 421 before routing and authentication, which stops DNS rebinding. Always
   * allowed: `localhost`, IP addresses and the hosts of `allowedOrigins`. `["*"]` allows any name.
   */
  allowedHosts?: string[];
  /** A message while a turn runs: "reject" answers 409 (default), "queue" runs it afterwards. */
  busy?: "reject" | "queue";
  limits?: GloveServerLimits;
  events?: GloveServerEventOptions;
  /**
   * Idle conversations (no turn, no open stream) are dropped from memory after this (before that,
   * after `events.replayWindowMs`, most hibernate). Default 60 000 ms.
   */
  idleTimeoutMs?: number;
  /** Conversations kept in memory at most; the least recently used idle ones go first. Default 1000. */
  maxLiveConversations?: number;
  /**
   * Many instances on shared state: `redisScale({ redis })` from "glove-server/redis" (with
   * `postgresStorage()`). Turns then run on whichever instance takes them. Default: one process.
   */
  scale?: ServerScale;
  /**
   * Extra routes below basePath, behind the same authentication (e.g. `createStudio()` from
   * glove-studio at "/studio"). Default: none.
   */
  extensions?: ServerExtension[];
  /**
   * What the server deletes from storage on its own, in bounded background runs: inactive
   * conversations, old traces, settled questions past their tombstone window, old branches. Off
   * by default (every rule is opt-in). Needs sqliteStorage or postgresStorage.
   */
  retention?: GloveServerRetention;
  /** Where unexpected errors are reported. Default console.error. */
  log?: (message: string, error?: unknown) => void;
}

export interface ResolvedServerOptions {
  basePath: string;
  allowedOrigins: ReadonlySet<string>;
  hostAllowed: HostAllowed;
  busy: "reject" | "queue";
  bodyBytes: number;
  textChars: number;
  queuedTurns: number;
  conversationsPerPrincipal: number;
  conversationsPerMinute: number;
  concurrentTurnsPerPrincipal: number;
  turnsPerMinute: number;
  heartbeatMs: number;
  retryMs: number;
  replayEvents: number;
  replayChars: number;
  readerLagChars: number;
  inboxPollMs: number;
  replayWindowMs: number;
  idleTimeoutMs: number;
  maxLiveConversations: number;
  log: (message: string, error?: unknown) => void;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(`createGloveServer: ${name} must be a positive number, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** A per-principal quota: a positive number, or Infinity for none. */
function quota(name: string, value: number | undefined, fallback: number): number {
  return value === Infinity ? value : positive(name, value, fallback);
}

export function resolveOptions(options: GloveServerOptions): ResolvedServerOptions {
  const basePath = (options.basePath ?? "/").replace(/\/+$/, "");
  if (basePath !== "" && !basePath.startsWith("/")) {
    throw new ConfigurationError(
      `createGloveServer: basePath must start with "/", got ${JSON.stringify(options.basePath)}.`,
    );
  }
  if (options.busy !== undefined && options.busy !== "reject" && options.busy !== "queue") {
    throw new ConfigurationError(
      `createGloveServer: busy must be "reject" or "queue", got ${JSON.stringify(options.busy)}.`,
    );
  }
  if (options.scale !== undefined && (typeof options.scale !== "object" || typeof options.scale.start !== "function")) {
    throw new ConfigurationError(
      'createGloveServer: scale must come from a scale mode, e.g. redisScale({ redis }) from "glove-server/redis".',
    );
  }
  if (options.scale && options.busy === "queue") {
    throw new ConfigurationError(
      'createGloveServer: busy: "queue" is not supported with scale yet; use the default "reject" (409 while a turn runs).',
    );
  }
  const limits = options.limits ?? {};
  const events = options.events ?? {};
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  return {
    basePath,
    allowedOrigins,
    hostAllowed: hostPolicy(options.allowedHosts, allowedOrigins),
    busy: options.busy ?? "reject",
    bodyBytes: positive("limits.bodyBytes", limits.bodyBytes, 1024 * 1024),
    textChars: positive("limits.textChars", limits.textChars, 100_000),
    queuedTurns: positive("limits.queuedTurns", limits.queuedTurns, 8),
    conversationsPerPrincipal: quota("limits.conversationsPerPrincipal", limits.conversationsPerPrincipal, 1000),
    conversationsPerMinute: quota("limits.conversationsPerMinute", limits.conversationsPerMinute, 30),
    concurrentTurnsPerPrincipal: quota("limits.concurrentTurnsPerPrincipal", limits.concurrentTurnsPerPrincipal, 4),
    turnsPerMinute: quota("limits.turnsPerMinute", limits.turnsPerMinute, 30),
    heartbeatMs: positive("events.heartbeatMs", events.heartbeatMs, 15_000),
    retryMs: positive("events.retryMs", events.retryMs, 1000),
    replayEvents: positive("events.replayEvents", events.replayEvents, 5000),
    replayChars: positive("events.replayChars", events.replayChars, 262_144),
    readerLagChars: positive("events.readerLagChars", events.readerLagChars, 16 * 1024 * 1024),
    inboxPollMs: positive("events.inboxPollMs", events.inboxPollMs, 2000),
    replayWindowMs: positive("events.replayWindowMs", events.replayWindowMs, 30_000),
    idleTimeoutMs: positive("idleTimeoutMs", options.idleTimeoutMs, 60_000),
    maxLiveConversations: positive("maxLiveConversations", options.maxLiveConversations, 1000),
    log: options.log ?? ((message, error) => console.error(message, error ?? "")),
  };
}
