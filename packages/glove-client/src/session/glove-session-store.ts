import type { LocalSession } from "../local/local-session.js";
import { GloveStore } from "../state/glove-store.js";
import type { FrameScheduler } from "../state/frame-batcher.js";
import { initialState } from "../state/initial-state.js";
import type { BranchActionResult, GloveSession, ImageInput, SlotAnswerResult } from "../types/session.js";
import type { GloveState } from "../types/state.js";
import type { TimelineEntry } from "../types/timeline.js";
import type { ToolView } from "../types/tool.js";
import { toErrorInfo } from "../util/error-info.js";
import { createGloveSession, loadLocalMode, type ConfigSource } from "./create-session.js";
import type { GloveSessionConfig } from "./session-config.js";

/** Options of GloveSessionStore. */
export interface GloveSessionStoreOptions {
  /** How streaming text is batched before listeners hear about it (default: per animation frame). */
  scheduler?: FrameScheduler | undefined;
}

const notOpenSlot = (): Promise<SlotAnswerResult> =>
  Promise.resolve({ ok: false, reason: "unknown_slot", message: "The session is not open yet." });
const notOpenBranch = (): Promise<BranchActionResult> =>
  Promise.resolve({ ok: false, reason: "refused", message: "The session is not open yet." });

/**
 * A Glove conversation for any UI: the state (an external store with `subscribe` / `getSnapshot`,
 * what React's `useSyncExternalStore`, a Svelte store or a plain callback reads) and the actions,
 * in either mode. `open()` starts the session for the config's mode; actions called before it is
 * ready (local mode's code loads on demand) wait for it. glove-react's `useGlove` is this plus
 * rendering.
 */
export class GloveSessionStore {
  readonly store: GloveStore;
  readonly #config: ConfigSource;
  #session: GloveSession | null = null;
  /** Calls made before the session exists (in React: a child's mount effect runs before the hook's). */
  #early: Array<(session: GloveSession) => void> = [];
  #wanted: string | undefined;
  #built: Pick<GloveSessionConfig, "systemPrompt" | "endpoint" | "model">;
  #timeline: { raw: TimelineEntry[]; entries: TimelineEntry[] } | undefined;

  constructor(config: GloveSessionConfig | ConfigSource, options: GloveSessionStoreOptions = {}) {
    this.#config = typeof config === "function" ? config : () => config;
    const first = this.#config();
    this.store = new GloveStore(
      initialState(first.initialSnapshot ?? null, first.conversationId ?? first.sessionId ?? null),
      options.scheduler ? { scheduler: options.scheduler } : {},
    );
    this.#wanted = GloveSessionStore.#wantedId(first);
    this.#built = { systemPrompt: first.systemPrompt, endpoint: first.endpoint, model: first.model };
  }

  /** "server" when the config names a glove-server, else "local". */
  get mode(): "local" | "server" {
    return this.#config().server !== undefined ? "server" : "local";
  }

  /** The open session; null before `open()` and while local mode's code loads. */
  get session(): GloveSession | null {
    return this.#session;
  }

  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);
  /** The published state (stable between notifications). */
  readonly getSnapshot = (): GloveState => this.store.getSnapshot();
  /** The initial state, for server rendering and hydration. */
  readonly getServerSnapshot = (): GloveState => this.store.getServerSnapshot();

  /**
   * Starts a session for the config's mode (in React: from an effect). Returns what closes it:
   * the state stays readable, and a later `open()` starts a new session on the same store.
   */
  open(): () => void {
    let live = true;
    let session: GloveSession | undefined;
    const attach = (made: GloveSession) => {
      // Closed while local mode's code loaded: this one never started, holds nothing.
      if (!live) return;
      session = made;
      this.#session = made;
      made.start();
      for (const call of this.#early.splice(0)) call(made);
    };
    const made = createGloveSession(this.#config, this.store);
    if (made instanceof Promise)
      void made.then(
        attach,
        (error: unknown) => live && this.store.dispatch({ type: "error", error: toErrorInfo(error) }),
      );
    else attach(made);
    return () => {
      live = false;
      session?.dispose();
      if (this.#session === session) this.#session = null;
    };
  }

  /**
   * The config changed: another conversation or session id is switched to (unless the session is
   * already there: it created it), and a new system prompt or model reaches a running local session.
   */
  configChanged(): void {
    const config = this.#config();
    const session = this.#session;
    const wanted = GloveSessionStore.#wantedId(config);
    const previous = this.#wanted;
    this.#wanted = wanted;
    if (session && wanted !== previous && wanted !== session.conversationId) {
      if (wanted) session.switchConversation(wanted);
      else session.newConversation();
    }
    this.#updateLocal(config);
  }

  /** The tools changed (local mode refolds them; server mode only renders with them). */
  setTools(tools: readonly ToolView[]): void {
    this.#session?.setTools(tools);
  }

  /** The transcript of the published state; a failed message's entry carries its `retry`. */
  timeline(state: GloveState = this.store.getSnapshot()): TimelineEntry[] {
    const raw = this.store.timeline(state);
    if (this.#timeline?.raw === raw) return this.#timeline.entries;
    const entries = raw.map((entry): TimelineEntry =>
      entry.kind === "user" && entry.status === "failed" && entry.clientMessageId
        ? { ...entry, retry: () => this.retry(entry.clientMessageId!) }
        : entry,
    );
    this.#timeline = { raw, entries };
    return entries;
  }

  /** Shows the message at once and sends it (queued behind a running turn); returns its client id. */
  readonly sendMessage = (text: string, images?: ImageInput[]): string =>
    this.#withSession(
      (s) => s.sendMessage(text, images),
      () => "",
    );
  readonly abort = (): Promise<void> =>
    this.#withSession(
      (s) => s.abort(),
      () => Promise.resolve(),
    );
  readonly resolveSlot = (slotId: string, value?: unknown): Promise<SlotAnswerResult> =>
    this.#session?.resolveSlot(slotId, value) ?? notOpenSlot();
  readonly rejectSlot = (slotId: string, reason?: string): Promise<SlotAnswerResult> =>
    this.#session?.rejectSlot(slotId, reason) ?? notOpenSlot();
  /** Sends a failed message again. */
  readonly retry = (clientMessageId: string): void =>
    this.#withSession(
      (s) => s.retry(clientMessageId),
      () => undefined,
    );
  readonly regenerate = (): Promise<BranchActionResult> => this.#session?.regenerate() ?? notOpenBranch();
  readonly editMessage = (messageId: string, text: string): Promise<BranchActionResult> =>
    this.#session?.editMessage(messageId, text) ?? notOpenBranch();
  readonly switchBranch = (messageId: string): Promise<BranchActionResult> =>
    this.#session?.switchBranch(messageId) ?? notOpenBranch();
  readonly newConversation = (): void =>
    this.#withSession(
      (s) => s.newConversation(),
      () => undefined,
    );
  readonly switchConversation = (id: string): void =>
    this.#withSession(
      (s) => s.switchConversation(id),
      () => undefined,
    );

  #withSession<T>(call: (session: GloveSession) => T, early: () => T): T {
    const session = this.#session;
    if (session) return call(session);
    this.#early.push(call);
    return early();
  }

  #updateLocal(config: GloveSessionConfig): void {
    const session = this.#session;
    if (session?.mode !== "local") return;
    const { systemPrompt, endpoint, model } = config;
    const built = this.#built;
    const local = session as LocalSession;
    if (systemPrompt !== built.systemPrompt && systemPrompt !== undefined) local.update({ systemPrompt });
    if ((endpoint !== built.endpoint || model !== built.model) && (endpoint || model)) {
      // Already loaded: the session exists, so local mode's code is there.
      void loadLocalMode().then(({ modelFor }) => local.update({ model: modelFor(this.#config(), this.#config) }));
    }
    this.#built = { systemPrompt, endpoint, model };
  }

  static #wantedId(config: GloveSessionConfig): string | undefined {
    return config.server !== undefined ? config.conversationId : config.sessionId;
  }
}
