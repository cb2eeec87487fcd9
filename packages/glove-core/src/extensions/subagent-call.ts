import type {
  CallWaits,
  DisplayManagerAdapter,
  IGloveRunnable,
  Message,
  ModelPromptResult,
  SlotOrigin,
  SlotPush,
  StoreAdapter,
  SubscriberAdapter,
  SubscriberEventArgs,
} from "../types/index.js";
import type { EventBus } from "../runtime/event-bus.js";
import { storeKeepsWaits } from "../runtime/call-waits.js";
import {
  currentMessages,
  questionToResume,
  RESUME_ONLY,
  SUBAGENT_LINK_STEP,
  type SubagentLink,
} from "../runtime/nested-questions.js";
import { unansweredToolCalls } from "../stores/message-integrity.js";

/**
 * One subagent call's child (docs/decisions/0023). Its factory gets the parent's display as a view
 * that tags the child's slots with their origin. When the call is durable and the child runs on a
 * durable sub-store of the parent's store, the call records that store first (the link), so the
 * child's stored questions can be found and answered after a restart; the call that runs again
 * then continues the child's stored turn instead of prompting it anew, and the child's calls meet
 * their recorded answers.
 */
export class SubagentCall {
  readonly display: DisplayManagerAdapter;
  readonly #parentStore: StoreAdapter;
  /** The child's tool-call inputs, by call id, for its slots' origin. */
  readonly #inputs = new Map<string, unknown>();

  constructor(
    readonly name: string,
    parent: { store: StoreAdapter; displayManager: DisplayManagerAdapter },
    /** The parent's `glove_invoke_subagent` call. */
    private readonly callId: string | undefined,
  ) {
    const { store, displayManager } = parent;
    this.#parentStore = store;
    const tag = <S extends object>(slot: S): S => ({ ...slot, origin: this.#origin(slot as SlotPush<unknown>) });
    this.display = overriding(displayManager, {
      pushAndWait: (slot) => displayManager.pushAndWait(tag(slot)),
      pushAndForget: (slot) => displayManager.pushAndForget(tag(slot)),
    });
  }

  /**
   * Runs the child with the parent's subscribers seeing its events while it runs, each tagged with
   * the child's name in front of any path it already carries (a grandchild's), so they can tell who spoke.
   */
  async run(
    child: IGloveRunnable,
    prompt: string,
    bus: EventBus,
    waits: CallWaits | undefined,
    signal?: AbortSignal,
  ): Promise<ModelPromptResult | Message> {
    const forward: SubscriberAdapter = {
      record: (...event) => {
        this.#remember(event);
        const [type, data] = event;
        return bus.emit(type, { ...data, agentPath: [this.name, ...(data.agentPath ?? [])] });
      },
    };
    child.addSubscriber(forward);
    // The parent's model call observers see the child's calls too, under its name.
    const stopCalls = bus.observesModelCalls
      ? child.observeModelCalls?.((event) =>
          bus.reportModelCall({ ...event, agentPath: [this.name, ...(event.agentPath ?? [])] }),
        )
      : undefined;
    try {
      const link = waits ? await this.#link(child, waits) : undefined;
      if (link && !link.fresh) return await this.#resume(child, prompt, link.from, signal);
      return await child.processRequest(prompt, signal);
    } finally {
      child.removeSubscriber(forward);
      stopCalls?.();
    }
  }

  /** Records the child's durable sub-store as the call's first step; undefined when its questions cannot outlive the process. */
  async #link(child: IGloveRunnable, waits: CallWaits): Promise<{ fresh: boolean; from: number } | undefined> {
    const store = child.store;
    if (!storeKeepsWaits(store) || !child.resolveSlot) return undefined;
    // An ephemeral sub-store (or one the parent cannot open again) is lost with the process.
    const namespace = await durableNamespace(this.#parentStore, store);
    if (namespace === undefined) return undefined;
    const before = await messageCount(store);
    let fresh = false;
    const link = await waits.step<SubagentLink>(SUBAGENT_LINK_STEP, () => {
      fresh = true;
      return { name: this.name, namespace, from: before };
    });
    return { fresh: fresh || link.namespace !== namespace, from: link.from };
  }

  /** The call runs again to resume its turn: the child goes on from its stored turn. */
  async #resume(
    child: IGloveRunnable,
    prompt: string,
    from: number,
    signal?: AbortSignal,
  ): Promise<ModelPromptResult | Message> {
    const store = child.store;
    if (!storeKeepsWaits(store) || (await messageCount(store)) <= from) return child.processRequest(prompt, signal); // the prompt never reached it
    const history = await currentMessages(store);
    for (const call of unansweredToolCalls(history)) if (call.id) this.#inputs.set(call.id, call.input_args);
    const live = child.displayManager.resolverStore;
    const slotId = await questionToResume(store, history, (id) => live.has(id));
    const resumed = slotId !== undefined ? await child.resolveSlot?.(slotId, RESUME_ONLY, signal) : undefined;
    if (resumed) return resumed;
    // No stored question to resume by: the child continues its turn as after a crash.
    return child.continueTurn ? child.continueTurn(signal) : child.processRequest(prompt, signal);
  }

  /** Notes the inputs of the child's own tool calls (a grandchild's carry an agentPath). */
  #remember(event: SubscriberEventArgs): void {
    if (event[1].agentPath) return;
    if (event[0] === "tool_use") this.#inputs.set(event[1].id, event[1].input);
    if (event[0] === "model_response" || event[0] === "model_response_complete") {
      for (const call of event[1].tool_calls ?? []) if (call.id) this.#inputs.set(call.id, call.input_args);
    }
  }

  /** The slot's origin one level up: this subagent in front of the path, and the parent's call it came through. */
  #origin(slot: SlotPush<unknown>): SlotOrigin {
    // A grandchild's slot already names its tool; the child's call it names is replaced by ours.
    const { subagentCallId: _child, ...inner } = slot.origin ?? this.#asked(slot);
    return {
      ...inner,
      agentPath: [this.name, ...inner.agentPath],
      ...(this.callId !== undefined ? { subagentCallId: this.callId } : {}),
    };
  }

  /** The child's own call that pushed `slot`: its tool and input. */
  #asked(slot: SlotPush<unknown>): SlotOrigin {
    const origin: SlotOrigin = { agentPath: [] };
    if (slot.toolName !== undefined) origin.toolName = slot.toolName;
    if (slot.toolCallId !== undefined && this.#inputs.has(slot.toolCallId))
      origin.input = this.#inputs.get(slot.toolCallId);
    return origin;
  }
}

/** A durable sub-store's id is `<parent>::<namespace>`, an ephemeral one's `<parent>::<namespace>~<uuid>` (stores/store-ids.ts). */
const EPHEMERAL_SUFFIX = /~[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The namespace under which `parent` opens `sub` again (`createSubAgentStore(namespace, { durable: true })`), if it does. */
async function durableNamespace(parent: StoreAdapter, sub: StoreAdapter): Promise<string | undefined> {
  const prefix = `${parent.identifier}::`;
  if (!parent.createSubAgentStore || !sub.identifier.startsWith(prefix) || EPHEMERAL_SUFFIX.test(sub.identifier))
    return undefined;
  const namespace = sub.identifier.slice(prefix.length);
  // A store that names its children otherwise is not guessed at: it must give this one back.
  const again = await parent.createSubAgentStore(namespace, { durable: true });
  return again.identifier === sub.identifier ? namespace : undefined;
}

async function messageCount(store: StoreAdapter): Promise<number> {
  return store.messageCount ? store.messageCount() : (await store.getMessages()).length;
}

/**
 * `target` with `overrides` in place of some of its members; everything else reads through,
 * methods bound to `target` (so a class's private fields keep working).
 */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get: (object, key) => {
      if (key in overrides) return overrides[key as keyof T];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
    set: (object, key, value) => Reflect.set(object, key, value, object),
  });
}
