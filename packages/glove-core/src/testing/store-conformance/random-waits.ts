/**
 * Random durable-question sequences for the waits property case, from the seeded generator (no
 * dependency): adds of new and already stored ids, settles of pending, settled and unknown waits,
 * races of two stores settling one wait, and filtered reads. Input and value data come from the
 * message generator, so they hold NUL, lone surrogates, NaN, Dates and nested structures.
 *
 * `WaitModel` is the oracle: the documented semantics (`StoreAdapter.addWait`, `settleWait`,
 * `getWaits`) over a plain list, not the stores' rows: the first add of an id is kept, the first
 * settle of a pending wait wins, reads follow insertion order, data reads back as its JSON form.
 */
import type { StoredWait, StoredWaitStatus, WaitFilter, WaitOutcome, WaitSettlement } from "../../types/index.js";
import { MessageGenerator, Seeded } from "./random-messages.js";

/** What JSON makes of a value; undefined stays absent. */
function jsonForm(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/**
 * A wait as every store reads it back: StoredWait's fields only, input and value as their JSON
 * form, `value` and `displayStrategy` only when present, `settled_at` null when left out.
 */
export function storedForm(wait: StoredWait): StoredWait {
  return {
    id: wait.id,
    kind: wait.kind,
    toolCallId: wait.toolCallId,
    toolName: wait.toolName,
    position: wait.position,
    renderer: wait.renderer,
    input: jsonForm(wait.input),
    ...(wait.displayStrategy === undefined ? {} : { displayStrategy: wait.displayStrategy }),
    status: wait.status,
    ...(wait.value === undefined ? {} : { value: jsonForm(wait.value) }),
    created_at: wait.created_at,
    settled_at: wait.settled_at ?? null,
  };
}

export class WaitModel {
  readonly #waits: StoredWait[] = [];

  get ids(): string[] {
    return this.#waits.map((wait) => wait.id);
  }

  add(wait: StoredWait): void {
    if (!this.#waits.some((stored) => stored.id === wait.id)) this.#waits.push(storedForm(wait));
  }

  settle(id: string, outcome: WaitOutcome): WaitSettlement {
    const at = this.#waits.findIndex((wait) => wait.id === id);
    const wait = this.#waits[at];
    if (!wait || wait.status !== "pending") return { won: false, wait };
    const settled = storedForm({
      ...wait,
      status: outcome.status,
      value: outcome.value,
      settled_at: outcome.settled_at,
    });
    this.#waits[at] = settled;
    return { won: true, wait: settled };
  }

  get(filter: WaitFilter = {}): StoredWait[] {
    return this.#waits.filter(
      (wait) =>
        (filter.status === undefined || wait.status === filter.status) &&
        (filter.toolCallId === undefined || wait.toolCallId === filter.toolCallId),
    );
  }
}

export type WaitStep =
  | { op: "add"; wait: StoredWait }
  | { op: "settle"; id: string; outcome: WaitOutcome }
  /** Two stores on the session settle `id` at once, with these outcomes. */
  | { op: "race"; id: string; outcomes: [WaitOutcome, WaitOutcome] }
  | { op: "get"; filter: WaitFilter | undefined };

/** Ids and tool call ids: valid keys, a few beyond ASCII. */
const IDS = ["w0", "w1", "w2", "w3", "w4", "slot \u2028東😀", "step:e\u0301"];
const CALLS = ["call_1", "call_2", "call 😀"];
const RENDERERS = ["confirm", "pick_one", "charge"];
const SETTLED: ReadonlyArray<WaitOutcome["status"]> = ["resolved", "rejected", "cancelled"];
const STATUSES: readonly StoredWaitStatus[] = ["pending", ...SETTLED];
const STRATEGIES = [undefined, "stay", "hide-on-complete", "hide-on-new"] as const;

export class WaitGenerator {
  readonly #r: Seeded;
  readonly #data: MessageGenerator;
  #clock = 0;

  constructor(seed: number) {
    this.#r = new Seeded(seed);
    this.#data = new MessageGenerator(seed ^ 0x5bd1e995);
  }

  /** The next step, given what the store holds (`model`): mostly about waits it has. */
  step(model: WaitModel): WaitStep {
    const roll = this.#r.next();
    const known = model.ids;
    const id = known.length > 0 && this.#r.chance(0.75) ? this.#r.pick(known) : this.#r.pick(IDS);
    if (roll < 0.4) return { op: "add", wait: this.#wait(this.#r.chance(0.6) ? this.#r.pick(IDS) : id) };
    if (roll < 0.65) return { op: "settle", id, outcome: this.#outcome() };
    if (roll < 0.75) return { op: "race", id, outcomes: [this.#outcome(), this.#outcome()] };
    return { op: "get", filter: this.#filter() };
  }

  #wait(id: string): StoredWait {
    const step = this.#r.chance(0.3);
    const wait: StoredWait = {
      id,
      kind: step ? "step" : "question",
      toolCallId: this.#r.pick(CALLS),
      toolName: "tool",
      position: this.#r.int(4),
      renderer: this.#r.pick(RENDERERS),
      input: step ? null : this.#data.data(),
      status: step ? "resolved" : "pending",
      created_at: this.#time(),
      settled_at: step ? this.#time() : null,
    };
    const strategy = this.#r.pick(STRATEGIES);
    if (strategy !== undefined) wait.displayStrategy = strategy;
    if (step) wait.value = this.#data.data();
    return wait;
  }

  #outcome(): WaitOutcome {
    const outcome: WaitOutcome = { status: this.#r.pick(SETTLED), settled_at: this.#time() };
    if (this.#r.chance(0.85)) outcome.value = this.#data.data();
    return outcome;
  }

  #filter(): WaitFilter | undefined {
    const roll = this.#r.int(5);
    if (roll === 0) return undefined;
    const filter: WaitFilter = {};
    if (roll & 1) filter.status = this.#r.pick(STATUSES);
    if (roll & 2) filter.toolCallId = this.#r.pick(CALLS);
    return filter;
  }

  /** Distinct timestamps, so a failure shows which write a field came from. */
  #time(): string {
    return new Date(Date.UTC(2026, 0, 1) + ++this.#clock * 1000).toISOString();
  }
}
