import { DisplaySlotClosedError, DisplaySlotRejectedError, GloveError } from "../errors.js";
import type {
  DisplayManagerAdapter,
  ListenerFn,
  RejectFn,
  Renderer,
  ResolverFn,
  Slot,
  SlotAnswerCheck,
  SlotPush,
  UnsubscribeFn,
} from "../types/index.js";
import type { z } from "zod";

/** Renderer name used when a push does not say which renderer should draw the slot. */
const DEFAULT_RENDERER = "default";

/** The part of a zod issue we report; typed structurally so no runtime zod import is needed. */
interface SchemaIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** Turns zod issues into one readable line per issue, e.g. `amount: Expected number`. */
function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map((segment) => String(segment)).join(".");
      return `${path === "" ? "(root)" : path}: ${issue.message}`;
    })
    .join("; ");
}

/**
 * The display stack: an ordered list of UI slots that tools push and the UI answers.
 *
 * Guarantees (docs/concepts/display-stack.md):
 * - A `pushAndWait` resolver is registered before any listener hears about the slot, so a UI that
 *   answers synchronously inside its listener never leaves the tool hanging.
 * - Removing a pending slot (`removeSlot`, `clearStack`) rejects its waiter with
 *   `DisplaySlotClosedError` instead of leaving a promise that never settles.
 * - A throwing listener is logged and isolated; the other listeners still run.
 */
export class Displaymanager implements DisplayManagerAdapter {
  renderers: Array<Renderer<unknown, unknown>> = [];
  stack: Slot<unknown>[] = [];
  listeners = new Set<ListenerFn>();
  resolverStore = new Map<string, { resolve: ResolverFn<unknown>; reject: RejectFn }>();
  /** Per-push resolve schemas of pending slots (kept off the slot: schemas are not data). */
  readonly #resolveSchemas = new Map<string, z.ZodType>();

  /** Registers a renderer; a renderer with the same name is replaced in place (keeps its position). */
  registerRenderer<I, O>(renderer: Renderer<I, O>): void {
    // The registry is heterogeneous; schemas are only used through `safeParse`, so widening is safe.
    const widened = renderer as unknown as Renderer<unknown, unknown>;
    const index = this.renderers.findIndex((existing) => existing.name === renderer.name);
    if (index === -1) this.renderers.push(widened);
    else this.renderers[index] = widened;
  }

  /** Pushes a slot without waiting for an answer; resolves with the slot id once listeners ran. */
  async pushAndForget<I>(slot: SlotPush<I>): Promise<string> {
    const entry = this.#createSlot(slot);
    this.stack = [...this.stack, entry];
    await this.notify();
    return entry.id;
  }

  /**
   * Pushes a slot and resolves with the value the UI answers through `resolve`.
   * Rejects with `DisplaySlotRejectedError` (UI `reject`), `DisplaySlotClosedError` (slot removed or
   * stack cleared) or a `GloveError` when the answer fails the renderer's `outputSchema`.
   */
  async pushAndWait<I, O = unknown>(slot: SlotPush<I>): Promise<O> {
    const entry = this.#createSlot(slot);

    let settle!: { resolve: (value: O) => void; reject: RejectFn };
    const answer = new Promise<O>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // The waiter may be rejected while listeners are still running (a listener can call `reject`
    // synchronously). Mark it handled now so the runtime does not report an unhandled rejection;
    // the caller still receives the rejection through the returned promise.
    answer.catch(() => undefined);

    // Registered BEFORE the slot becomes visible to listeners: see the class comment.
    if (slot.resolveSchema) this.#resolveSchemas.set(entry.id, slot.resolveSchema);
    this.resolverStore.set(entry.id, {
      resolve: (value: unknown) => {
        // The push's schema is captured here: the pending entry is gone by the time this runs.
        const checked = this.#checkOutput(entry, value, slot.resolveSchema);
        if (checked.success) settle.resolve(checked.data as O);
        else settle.reject(checked.error);
      },
      reject: settle.reject,
    });
    this.stack = [...this.stack, entry];

    await this.notify();
    return answer;
  }

  /**
   * Runs `work`: outside a tool call there is nothing to record it for. Inside a durable call the
   * display a tool gets records it (see `ToolDisplay.step`); this lets a manager stand in for that
   * display, e.g. when a test calls a tool's `do` directly.
   */
  async step<T>(_name: string, work: () => T | Promise<T>): Promise<T> {
    return work();
  }

  /** Adds a listener; the returned function removes it again (calling it twice is harmless). */
  subscribe(listener: ListenerFn): UnsubscribeFn {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Calls every listener, in subscription order, with its own snapshot of the stack, so a listener
   * that keeps or mutates what it got cannot corrupt the manager or what the next listener sees.
   * Listener errors are logged and swallowed: one broken UI must not break the tool or other UIs.
   */
  async notify(): Promise<void> {
    const listeners = [...this.listeners];
    for (const listener of listeners) {
      const snapshot = this.stack.map((slot) => ({ ...slot }));
      try {
        await listener(snapshot);
      } catch (error) {
        console.error("[glove] A display stack listener threw; the other listeners still run.", error);
      }
    }
  }

  /**
   * Checks an answer against the slot's resolve schema (or its renderer's outputSchema) without
   * settling anything: a UI shows the issues and the tool keeps waiting.
   */
  checkAnswer(slot_id: string, value: unknown): SlotAnswerCheck {
    const slot = this.resolverStore.has(slot_id) ? this.stack.find((s) => s.id === slot_id) : undefined;
    if (!slot) {
      return {
        ok: false,
        reason: "unknown_slot",
        message: `No pending slot "${slot_id}": it was answered, closed, or never existed.`,
      };
    }
    const schema = this.#schemaFor(slot);
    if (!schema) return { ok: true, value };
    const parsed = schema.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map((segment) => String(segment)).join(".") || "(root)",
      message: issue.message,
    }));
    return {
      ok: false,
      reason: "invalid",
      message: `The answer for slot ${slot_id} (renderer "${slot.renderer}") is invalid: ${describeIssues(parsed.error.issues)}.`,
      issues,
    };
  }

  /** Answers a pending `pushAndWait` slot. Unknown or already-settled ids are ignored. */
  resolve<O>(slot_id: string, value: O): void {
    const pending = this.#takePending(slot_id);
    if (!pending) return;
    pending.resolve(value);
    void this.notify();
  }

  /** Fails a pending `pushAndWait` slot with `DisplaySlotRejectedError`. Unknown ids are ignored. */
  reject(slot_id: string, error: unknown): void {
    const pending = this.#takePending(slot_id);
    if (!pending) return;
    pending.reject(new DisplaySlotRejectedError(slot_id, error));
    void this.notify();
  }

  /** Removes a slot; a tool still waiting on it gets `DisplaySlotClosedError`. Unknown ids are ignored. */
  removeSlot(id: string): void {
    const pending = this.resolverStore.get(id);
    const present = this.stack.some((slot) => slot.id === id);
    if (!pending && !present) return;
    this.resolverStore.delete(id);
    this.#resolveSchemas.delete(id);
    this.stack = this.stack.filter((slot) => slot.id !== id);
    pending?.reject(new DisplaySlotClosedError(id, "removeSlot was called"));
    void this.notify();
  }

  /** Empties the stack; every tool still waiting gets `DisplaySlotClosedError`. */
  async clearStack(): Promise<void> {
    const pending = [...this.resolverStore.entries()];
    this.resolverStore.clear();
    this.#resolveSchemas.clear();
    this.stack = [];
    for (const [id, handlers] of pending) {
      handlers.reject(new DisplaySlotClosedError(id, "the display stack was cleared"));
    }
    await this.notify();
  }

  /** Removes a pending waiter and its slot in one step, so a slot can only be settled once. */
  #takePending(id: string): { resolve: ResolverFn<unknown>; reject: RejectFn } | undefined {
    const pending = this.resolverStore.get(id);
    if (!pending) return undefined;
    this.resolverStore.delete(id);
    this.#resolveSchemas.delete(id);
    this.stack = this.stack.filter((slot) => slot.id !== id);
    return pending;
  }

  /** The schema answers must match: the push's own, else the renderer's outputSchema (looked up now). */
  #schemaFor(slot: Slot<unknown>): z.ZodType | undefined {
    return this.#resolveSchemas.get(slot.id) ?? this.#findRenderer(slot.renderer)?.outputSchema;
  }

  #findRenderer(name: string): Renderer<unknown, unknown> | undefined {
    return this.renderers.find((renderer) => renderer.name === name);
  }

  /** Builds a slot, validating the input against the renderer's inputSchema when one is registered. */
  #createSlot<I>(slot: SlotPush<I>): Slot<unknown> {
    const name = slot.renderer ?? DEFAULT_RENDERER;
    const renderer = this.#findRenderer(name);
    let input: unknown = slot.input;
    if (renderer) {
      const parsed = renderer.inputSchema.safeParse(slot.input);
      if (!parsed.success) {
        throw new GloveError(
          `Invalid input for display renderer "${name}": ${describeIssues(parsed.error.issues)}. ` +
            `Pass an input that matches the renderer's inputSchema.`,
          { code: "GLOVE_DISPLAY_INVALID_INPUT", cause: parsed.error },
        );
      }
      // Keep zod's output (defaults applied, unknown keys stripped): it is what the renderer expects.
      input = parsed.data;
    }
    // A stored question shown again keeps its id, so answers sent to it before a restart still fit.
    const reuse =
      slot.id !== undefined && !this.resolverStore.has(slot.id) && !this.stack.some((s) => s.id === slot.id);
    const entry: Slot<unknown> = { id: reuse ? slot.id! : crypto.randomUUID(), renderer: name, input };
    if (slot.toolCallId !== undefined) entry.toolCallId = slot.toolCallId;
    if (slot.toolName !== undefined) entry.toolName = slot.toolName;
    if (slot.displayStrategy !== undefined) entry.displayStrategy = slot.displayStrategy;
    if (slot.origin !== undefined) entry.origin = slot.origin;
    return entry;
  }

  /** Validates an answer against the renderer's outputSchema (looked up now, so re-registration counts). */
  #checkOutput(
    slot: Slot<unknown>,
    value: unknown,
    own: z.ZodType | undefined,
  ): { success: true; data: unknown } | { success: false; error: GloveError } {
    const schema = own ?? this.#findRenderer(slot.renderer)?.outputSchema;
    if (!schema) return { success: true, data: value };
    const parsed = schema.safeParse(value);
    if (parsed.success) return { success: true, data: parsed.data };
    return {
      success: false,
      error: new GloveError(
        `Invalid answer for display slot ${slot.id} (renderer "${slot.renderer}"): ` +
          `${describeIssues(parsed.error.issues)}. The UI must resolve with a value matching the renderer's outputSchema.`,
        { code: "GLOVE_DISPLAY_INVALID_OUTPUT", cause: parsed.error },
      ),
    };
  }
}
