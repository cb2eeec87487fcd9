import {
  Displaymanager,
  Glove,
  MemoryStore,
  SlotBoard,
  type ContentPart,
  type StoreAdapter,
  type SubscriberAdapter,
  type SubscriberEvent,
} from "glove-core";
import type { GloveAction } from "../types/actions.js";
import type { SlotAnswerResult } from "../types/session.js";
import type { ToolConfig } from "../types/tool.js";
import { foldTools } from "./fold-tools.js";
import type { LocalSessionOptions } from "./local-options.js";
import { observeStore, readBranchPoints, readSideLists } from "./observed-store.js";
import { DEFAULT_STORAGE_PREFIX, PersistedStore } from "./persisted-store.js";

type Dispatch = (action: GloveAction) => void;

/** Local storage when persisting, looked up lazily (never at import, never during render). */
export function persistStorage(options: LocalSessionOptions) {
  const persist = options.persistSession;
  if (!persist) return undefined;
  const storage = (typeof persist === "object" && persist.storage) || globalThis.localStorage;
  return storage
    ? { storage, prefix: (typeof persist === "object" && persist.prefix) || DEFAULT_STORAGE_PREFIX }
    : undefined;
}

async function storeFor(options: LocalSessionOptions, sessionId: string, first: boolean): Promise<StoreAdapter> {
  if (first && options.store) return options.store;
  if (options.createStore) return options.createStore(sessionId);
  const persist = persistStorage(options);
  if (persist) return PersistedStore.open(sessionId, persist.storage, persist.prefix);
  return new MemoryStore(sessionId);
}

/**
 * One conversation of local mode: a Glove built in the tab on an observed store, its display
 * stack followed by a SlotBoard (glove-core), and every event described to the reducer. Closing it cuts it
 * off from the reducer, so a late event of an old conversation never shows in a new one.
 */
export class LocalConversation {
  #closed = false;
  #unsubscribeDisplay: () => void = () => undefined;

  private constructor(
    readonly sessionId: string,
    readonly glove: Glove,
    readonly store: StoreAdapter,
    private readonly display: Displaymanager,
    private readonly tracker: SlotBoard,
    private readonly subscriber: SubscriberAdapter,
    private readonly dispatch: Dispatch,
    /** Closed with the conversation: events after that go nowhere. */
    private readonly gate: { open: boolean },
  ) {}

  static async open(
    options: LocalSessionOptions,
    sessionId: string,
    first: boolean,
    dispatch: Dispatch,
  ): Promise<LocalConversation> {
    const inner = await storeFor(options, sessionId, first);
    const history = await inner.getMessages();
    const sides = await readSideLists(inner);
    const branches = await readBranchPoints(inner);
    const gate = { open: true };
    const emit: Dispatch = (action) => {
      if (gate.open) dispatch(action);
    };
    const store = observeStore(inner, emit, history.length);
    const display = new Displaymanager();
    const glove = new Glove({
      ...options.gloveConfig,
      store,
      model: options.model,
      displayManager: display,
      systemPrompt: options.systemPrompt,
      compaction_config: options.compaction, // undefined: glove-core's defaults
    });
    foldTools(glove, options.tools ?? []);
    const subscriber: SubscriberAdapter = {
      // A local Glove never resumes stored questions; glove-core's turn_resumed is not the wire's.
      record: async (type, data) => {
        if (type !== "turn_resumed") emit({ type, ...data } as Exclude<SubscriberEvent, { type: "turn_resumed" }>);
      },
    };
    glove.addSubscriber(subscriber);
    for (const extra of options.subscribers ?? []) glove.addSubscriber(extra);
    options.configure?.(glove);
    glove.build();
    const tracker = new SlotBoard({
      pushed: (slot) => emit({ type: "slot_push", slot }),
      settled: (slotId, status) => emit({ type: "slot_settled", slotId, status }),
    });
    emit({
      type: "snapshot",
      snapshot: {
        id: sessionId,
        messages: history,
        branches,
        slots: [],
        tasks: sides.tasks,
        inbox: sides.inbox,
        busy: false,
        turnId: null,
        streamingText: "",
      },
    });
    const conversation = new LocalConversation(sessionId, glove, store, display, tracker, subscriber, emit, gate);
    conversation.#unsubscribeDisplay = display.subscribe((stack) =>
      tracker.sync(stack, (id) => display.resolverStore.has(id)),
    );
    return conversation;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs one request; rejects with glove-core's errors (AbortError on abort). */
  async run(request: string | ContentPart[], signal: AbortSignal): Promise<void> {
    await this.glove.processRequest(request, signal);
  }

  /** The branch points as they stand (a regenerated answer is a sibling once it is stored). */
  async refreshBranches(): Promise<void> {
    const messages = await this.store.getMessages();
    this.dispatch({
      type: "branches_changed",
      keep: messages.length,
      messages: [],
      points: await readBranchPoints(this.store),
    });
  }

  /** Re-reads tasks and inbox (an inbox item may have been resolved by another process). */
  async refreshSideLists(): Promise<void> {
    const { tasks, inbox } = await readSideLists(this.store);
    this.dispatch({ type: "tasks", tasks });
    this.dispatch({ type: "inbox", items: inbox });
  }

  /** Checks the answer first: a refused one shows its issues on the slot and the tool keeps waiting. */
  resolve(slotId: string, value: unknown): SlotAnswerResult {
    const refused = this.#notPending(slotId);
    if (refused) return refused;
    const checked = this.display.checkAnswer(slotId, value);
    if (!checked.ok) {
      if (checked.reason === "unknown_slot") return { ok: false, reason: "settled", message: checked.message };
      this.dispatch({ type: "slot_issues", slotId, issues: checked.issues });
      return { ok: false, reason: "invalid", message: checked.message, issues: checked.issues };
    }
    this.tracker.claim(slotId, "resolved");
    // The raw value: the display manager parses it once more, and a transforming schema must see its input.
    this.display.resolve(slotId, value);
    return { ok: true };
  }

  reject(slotId: string, reason?: string): SlotAnswerResult {
    const refused = this.#notPending(slotId);
    if (refused) return refused;
    this.tracker.claim(slotId, "rejected");
    this.display.reject(slotId, reason ?? "rejected by the user");
    return { ok: true };
  }

  setTools(tools: readonly ToolConfig[]): void {
    foldTools(this.glove, tools);
  }

  /** Detaches from the reducer and takes down pending slots (their tools get DisplaySlotClosedError). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.gate.open = false;
    this.#unsubscribeDisplay();
    this.glove.removeSubscriber(this.subscriber);
    void this.display.clearStack();
  }

  #notPending(slotId: string): SlotAnswerResult | undefined {
    if (this.tracker.isPending(slotId)) return undefined;
    const known = this.display.stack.some((slot) => slot.id === slotId);
    return known
      ? { ok: false, reason: "refused", message: `Slot ${slotId} does not wait for an answer (pushAndForget).` }
      : {
          ok: false,
          reason: "settled",
          message: `Slot ${slotId} is not waiting for an answer: it was answered, closed, or never existed.`,
        };
  }
}
