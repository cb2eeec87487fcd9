/**
 * Random tool-call conversations for the repair case of the conformance suite, from the seeded
 * generator (no dependency). Batches of user turns, agent messages with calls (ids from a small
 * pool, some without an id, some reused), results for waiting calls — and sometimes for calls
 * already answered or never made —, agent text, compaction summaries and empty batches.
 *
 * `TurnModel` is the oracle: the documented behaviour (docs/decisions/0006 and 0020) written as a
 * state machine over the calls still waiting in the current turn, not as the stores' scan of the
 * stored history. It holds while a session is shorter than the stores' read windows (64 messages
 * back for a turn, 256 for earlier answers); the case keeps sessions under 60 messages.
 */
import { interruptedResult } from "../../stores/message-integrity.js";
import type { Message, ToolCall, ToolResult } from "../../types/index.js";
import { Seeded } from "./random-messages.js";

/** What a store must do with a batch: store it (after a repair, if any) or refuse it whole. */
export type TurnOutcome = "stored" | "GLOVE_STORE_CONFLICT";

export class TurnModel {
  /** What the store must hold. */
  readonly messages: Message[] = [];
  /** Calls of the current turn (since the last user message that is not results) no result answers yet. */
  #waiting: ToolCall[] = [];
  /** Every call id a stored result answers. */
  readonly #answered = new Set<string>();

  /** @param repairs whether the store repairs interrupted turns (else it stores every batch as given). */
  constructor(readonly repairs: boolean) {}

  get waiting(): readonly ToolCall[] {
    return this.#waiting;
  }

  get answered(): readonly string[] {
    return [...this.#answered];
  }

  append(batch: readonly Message[]): TurnOutcome {
    if (batch.length === 0) return "stored";
    if (!this.repairs) {
      for (const m of batch) this.#record(m);
      return "stored";
    }
    const afterAgent = this.messages.at(-1)?.sender === "agent";
    const startsWithResults = (batch[0]!.tool_results?.length ?? 0) > 0;
    const repair: Message | undefined =
      afterAgent && !startsWithResults && this.#waiting.length > 0
        ? { sender: "user", text: "", tool_results: this.#waiting.map(interruptedResult) }
        : undefined;
    // Results a batch may carry: for calls waiting right after the agent's message (none once
    // repaired) or made earlier in the batch. Others are late when a stored result answers them.
    const open = new Set(afterAgent && !repair ? this.#waiting.map((call) => call.id) : []);
    const answered = new Set([...this.#answered, ...(repair?.tool_results ?? []).map((r) => r.call_id)]);
    for (const m of batch) {
      for (const call of m.sender === "agent" ? (m.tool_calls ?? []) : []) if (call.id !== undefined) open.add(call.id);
      for (const result of m.sender === "user" ? (m.tool_results ?? []) : []) {
        if (result.call_id === undefined) continue;
        if (open.has(result.call_id)) open.delete(result.call_id);
        else if (answered.has(result.call_id)) return "GLOVE_STORE_CONFLICT";
      }
    }
    if (repair) this.#record(repair);
    for (const m of batch) this.#record(m);
    return "stored";
  }

  #record(m: Message): void {
    this.messages.push(m);
    const results = m.tool_results ?? [];
    for (const r of results) if (r.call_id !== undefined) this.#answered.add(r.call_id);
    if (m.sender === "agent") this.#waiting.push(...(m.tool_calls ?? []));
    else if (results.length === 0) this.#waiting = [];
    else for (const r of results) this.#settle(r);
  }

  /** A result answers the first waiting call with its id (or, without one, the first id-less call of its tool). */
  #settle(result: ToolResult): void {
    const matches = (call: ToolCall) =>
      result.call_id === undefined
        ? call.id === undefined && call.tool_name === result.tool_name
        : call.id === result.call_id;
    const index = this.#waiting.findIndex(matches);
    if (index !== -1) this.#waiting.splice(index, 1);
  }
}

/** Call ids are message data: NUL and lone surrogates in them are kept like any text. */
const CALL_IDS = ["c1", "c2", "c3", "c\u0000\ud800"];
const TOOLS = ["search", "fetch"];

export class TurnGenerator {
  readonly #r: Seeded;

  constructor(seed: number) {
    this.#r = new Seeded(seed);
  }

  /** A batch to append next, given what the store holds (`model`). */
  batch(model: TurnModel): Message[] {
    if (this.#r.next() < 0.05) return [];
    return Array.from({ length: 1 + this.#r.int(3) }, () => this.#message(model));
  }

  #message(model: TurnModel): Message {
    const roll = this.#r.next();
    if (roll < 0.22) return { sender: "user", text: `question ${this.#r.int(100)}` };
    if (roll < 0.52)
      return { sender: "agent", text: "", tool_calls: Array.from({ length: this.#r.int(4) }, () => this.#call()) };
    if (roll < 0.82)
      return {
        sender: "user",
        text: "",
        tool_results: Array.from({ length: 1 + this.#r.int(2) }, () => this.#result(model)),
      };
    if (roll < 0.92) return { sender: "agent", text: "thinking aloud" };
    return { sender: this.#r.next() < 0.5 ? "user" : "agent", text: "summary", is_compaction: true };
  }

  #call(): ToolCall {
    const call: ToolCall = { tool_name: this.#r.pick(TOOLS), input_args: { n: this.#r.int(10) } };
    if (this.#r.next() < 0.8) call.id = this.#r.pick(CALL_IDS);
    return call;
  }

  /** Mostly a waiting call's result; sometimes one for a call already answered (a late writer) or never made. */
  #result(model: TurnModel): ToolResult {
    const roll = this.#r.next();
    let target: { tool_name: string; id?: string | undefined };
    if (roll < 0.7 && model.waiting.length > 0) target = this.#r.pick(model.waiting);
    else if (roll < 0.8 && model.answered.length > 0)
      target = { tool_name: this.#r.pick(TOOLS), id: this.#r.pick(model.answered) };
    else target = { tool_name: this.#r.pick(TOOLS), id: this.#r.next() < 0.5 ? "c9" : undefined };
    const status = this.#r.next() < 0.8 ? "success" : "error";
    return {
      tool_name: target.tool_name,
      ...(target.id === undefined ? {} : { call_id: target.id }),
      result: { status, data: this.#r.int(10) },
    };
  }
}
