/**
 * The agent the browser tests run on the web-chat server: the bistro's tools plus a few test
 * tools, and a scripted model. A user message "run <scene>" plays a scene below (the step is the
 * number of agent turns since that message, as in the offline walkthrough); anything else plays
 * the offline walkthrough itself, so the screenshots show the real demo.
 *
 * Nothing waits on time: a turn can stream part of its text and then stop at a named gate until
 * the test opens it (or the turn is aborted), and a tool can do the same.
 */
import { z } from "zod";
import {
  AbortError,
  Displaymanager,
  Glove,
  type DisplayStrategy,
  type GloveFoldArgs,
  type Message,
  type ModelAdapter,
  type ModelPromptResult,
  type NotifySubscribersFunction,
  type PromptRequest,
  type StoreAdapter,
  type ToolCall,
  type ToolResult,
} from "glove-core";
import type { ScriptedTurn } from "glove-core/testing";
import { offlineTurn } from "../../src/offline-script.js";
import { bookTableTool, reservationFormTool, showMenuTool, type Booking } from "../../src/tools.js";

/** One-shot gates the test opens; `reached` tells the test something is waiting at one. */
export class Gates {
  readonly #opened = new Set<string>();
  readonly #waiters = new Map<string, Array<() => void>>();
  readonly #arrivals = new Map<string, { promise: Promise<void>; resolve: () => void }>();

  #arrival(name: string) {
    let entry = this.#arrivals.get(name);
    if (!entry) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve };
      this.#arrivals.set(name, entry);
    }
    return entry;
  }

  /** Resolves once something waits at (or has passed) the gate. */
  reached(name: string): Promise<void> {
    return this.#arrival(name).promise;
  }

  open(name: string): void {
    this.#opened.add(name);
    for (const wake of this.#waiters.get(name)?.splice(0) ?? []) wake();
  }

  wait(name: string, signal?: AbortSignal): Promise<void> {
    this.#arrival(name).resolve();
    if (this.#opened.has(name)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new AbortError());
      const onAbort = () => reject(new AbortError());
      signal?.addEventListener("abort", onAbort, { once: true });
      const list = this.#waiters.get(name) ?? [];
      list.push(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      });
      this.#waiters.set(name, list);
    });
  }
}

/** A turn: ScriptedTurn plus an optional stop at a gate once `gate.after` (a prefix of `text`) is streamed. */
export interface SceneTurn extends ScriptedTurn {
  gate?: { after: string; name: string };
}

interface SceneContext {
  results: ToolResult[];
  call(name: string, input: unknown): { name: string; input: unknown; id: string };
}

type Step = (ctx: SceneContext) => SceneTurn;

const choice = (ctx: SceneContext, question: string, strategy: DisplayStrategy, options = ["Yes", "No"]) =>
  ctx.call("ask_choice", { question, options, strategy });
const notice = (
  ctx: SceneContext,
  title: string,
  strategy: DisplayStrategy,
  extra: { gate?: string; close?: boolean } = {},
) => ctx.call("show_notice", { title, strategy, ...extra });

export const STREAM_TEXT = "Streaming works: every word of this sentence arrives on its own.";

/** A 100 KB "word" of the large scene: five of them stream as five 100 KB text deltas. */
export const LARGE_WORD = (n: number) => `[chunk ${n}:${"abcdefghij".repeat(10_000)}] `;
/** Characters the large scene's document tool returns (a long file read or a fetched page). */
export const DOCUMENT_CHARS = 300_000;

/** How many times the versions scene answered: each answer (a regenerate too) is a new version. */
let versions = 0;

/** The scenes, by the word after "run ". */
export const SCENES: Record<string, Step[]> = {
  stream: [() => ({ text: STREAM_TEXT, gate: { after: "Streaming works:", name: "stream" } })],
  hello: [() => ({ text: "Hello again." })],
  versions: [() => ({ text: `Answer version ${++versions}.` })],
  large: [
    (ctx) => ({ text: "Reading the document.", toolCalls: [ctx.call("read_document", { chars: DOCUMENT_CHARS })] }),
    (ctx) => ({
      text: `Read ${String(ctx.results[0]?.result.data ?? "").length} characters. ${[1, 2, 3, 4, 5].map(LARGE_WORD).join("")}Done reading.`,
    }),
  ],
  strategies: [
    // Two pushAndWait slots from one model turn (the tools run at once), each after its own call.
    (ctx) => ({
      text: "Two questions at once.",
      toolCalls: [choice(ctx, "Wait, stay?", "stay"), choice(ctx, "Wait, hide on complete?", "hide-on-complete")],
    }),
    (ctx) => ({ toolCalls: [choice(ctx, "Wait, hide on new #1?", "hide-on-new")] }),
    (ctx) => ({ toolCalls: [choice(ctx, "Wait, hide on new #2?", "hide-on-new")] }),
    // pushAndForget: a card that stays, and one shown only while its tool works.
    (ctx) => ({
      toolCalls: [
        notice(ctx, "Forget, stay", "stay"),
        notice(ctx, "Forget, hide on complete", "hide-on-complete", { gate: "forget-complete", close: true }),
      ],
    }),
    (ctx) => ({ toolCalls: [notice(ctx, "Forget, hide on new #1", "hide-on-new", { gate: "forget-new" })] }),
    (ctx) => ({ toolCalls: [notice(ctx, "Forget, hide on new #2", "hide-on-new")] }),
    () => ({ text: "Every strategy shown." }),
  ],
  permission: [
    (ctx) => ({
      text: "Booking it.",
      toolCalls: [ctx.call("book_table", { name: "Grace", guests: 3, time: "20:15" })],
    }),
    (ctx) => ({
      text:
        ctx.results[0]?.result.status === "success" ? "The table is booked." : "Not booked: permission was refused.",
    }),
  ],
  abort: [
    () => ({
      text: "Counting slowly: one two three, four five six.",
      gate: { after: "Counting slowly: one two three,", name: "abort" },
    }),
  ],
  reload: [
    (ctx) => ({
      text: "Before the reload. After the reload.",
      gate: { after: "Before the reload.", name: "reload" },
      toolCalls: [ctx.call("reservation_form", { question: "Who is the table for?", guests: 2 })],
    }),
    (ctx) => {
      const form = ctx.results.find((r) => r.tool_name === "reservation_form");
      return { text: `Form answered by ${(form?.result.data as { name?: string } | undefined)?.name ?? "nobody"}.` };
    },
  ],
  tabs: [
    (ctx) => ({ text: "Both tabs see this.", toolCalls: [choice(ctx, "Which tab answers?", "stay", ["This one"])] }),
    () => ({ text: "Answered in one tab." }),
  ],
  unknown: [
    (ctx) => ({ toolCalls: [ctx.call("mystery", {})] }),
    (ctx) => ({ text: `The mystery tool ended: ${ctx.results[0]?.result.status ?? "?"}.` }),
  ],
};

function isUserText(m: Message): boolean {
  return m.sender === "user" && !m.tool_results?.length && !m.is_compaction_request;
}

/** Which turn to play for `request`: a scene step, or the offline walkthrough. */
export function sceneTurn(request: PromptRequest): SceneTurn {
  const { messages } = request;
  let start = messages.length - 1;
  while (start >= 0 && !isUserText(messages[start]!)) start--;
  const userText = start >= 0 ? messages[start]!.text : "";
  const match = /^run (\w+)/.exec(userText.trim());
  if (!match) return offlineTurn(request);
  const step = messages.slice(start + 1).filter((m) => m.sender === "agent").length;
  const build = SCENES[match[1]!]?.[step];
  if (!build) return { text: `No step ${step} in scene ${match[1]}.` };
  let n = 0;
  return build({
    results: messages.at(-1)?.tool_results ?? [],
    call: (name, input) => ({ name, input, id: `t_${messages.length}_${n++}` }),
  });
}

/** A streaming model playing `sceneTurn`, word by word, stopping at gates. */
export class SceneModel implements ModelAdapter {
  readonly name = "scenes";
  constructor(private readonly gates: Gates) {}

  setSystemPrompt(): void {}

  async prompt(
    request: PromptRequest,
    notify: NotifySubscribersFunction,
    signal?: AbortSignal,
  ): Promise<ModelPromptResult> {
    const turn = sceneTurn(request);
    const text = turn.text ?? "";
    const words = text.match(/\S+\s*|\s+/g) ?? [];
    let streamed = "";
    for (const word of words) {
      if (signal?.aborted) throw new AbortError();
      await notify("text_delta", { text: word });
      streamed += word;
      if (turn.gate && streamed.trimEnd() === turn.gate.after) await this.gates.wait(turn.gate.name, signal);
    }
    const calls: ToolCall[] = (turn.toolCalls ?? []).map((c, i) => ({
      tool_name: c.name,
      input_args: c.input,
      id: c.id ?? `t_${i}`,
    }));
    for (const call of calls) await notify("tool_use", { id: call.id!, name: call.tool_name, input: call.input_args });
    if (signal?.aborted) throw new AbortError();
    const tokens_in = 100;
    const tokens_out = Math.ceil(text.length / 4) + calls.length * 10;
    await notify("model_response_complete", {
      text,
      tool_calls: calls.length ? calls : undefined,
      stop_reason: calls.length ? "tool_use" : "end_turn",
      tokens_in,
      tokens_out,
    });
    const message: Message = { sender: "agent", text };
    if (calls.length) message.tool_calls = calls;
    return { messages: [message], tokens_in, tokens_out };
  }
}

/** Test tools: a question (renderer "choice"), a card (renderer "notice"), and a slot nobody can draw. */
function foldTestTools(glove: Glove, gates: Gates): Glove {
  const strategy = z.enum(["stay", "hide-on-complete", "hide-on-new"]);
  const askChoice: GloveFoldArgs<{ question: string; options: string[]; strategy: DisplayStrategy }> = {
    name: "ask_choice",
    description: "Asks a question with buttons.",
    inputSchema: z.object({ question: z.string(), options: z.array(z.string()), strategy }),
    async do(input, display) {
      const answer = await display.pushAndWait<unknown, string>({
        renderer: "choice",
        input: { question: input.question, options: input.options },
        displayStrategy: input.strategy,
      });
      return { status: "success", data: `Chose ${answer}` };
    },
  };
  const showNotice: GloveFoldArgs<{ title: string; strategy: DisplayStrategy; gate?: string; close?: boolean }> = {
    name: "show_notice",
    description: "Shows a card; with a gate, works until the gate opens; with close, takes the card down when done.",
    inputSchema: z.object({ title: z.string(), strategy, gate: z.string().optional(), close: z.boolean().optional() }),
    async do(input, display, _glove, signal) {
      const id = await display.pushAndForget({
        renderer: "notice",
        input: { title: input.title },
        displayStrategy: input.strategy,
      });
      if (input.gate) await gates.wait(input.gate, signal);
      if (input.close) display.removeSlot(id);
      return { status: "success", data: "shown" };
    },
  };
  const mystery: GloveFoldArgs<Record<string, never>> = {
    name: "mystery",
    description: "Pushes a slot for a renderer the UI does not have.",
    inputSchema: z.object({}),
    async do(_input, display) {
      await display.pushAndWait({ renderer: "mystery_widget", input: { secret: 42 } });
      return { status: "success", data: "answered" };
    },
  };
  const readDocument: GloveFoldArgs<{ chars: number }> = {
    name: "read_document",
    description: "Returns a long document.",
    inputSchema: z.object({ chars: z.number().int().min(0) }),
    async do(input) {
      return { status: "success", data: "<p>document</p> ".repeat(Math.ceil(input.chars / 16)).slice(0, input.chars) };
    },
  };
  return glove.fold(askChoice).fold(showNotice).fold(mystery).fold(readDocument);
}

/** startWebChat's `agent` option: the bistro's tools and the test tools on the scene model. */
export function sceneAgent(gates: Gates) {
  return (bookings: Map<string, Booking>) =>
    ({ store }: { store: StoreAdapter }) => {
      const glove = new Glove({
        store,
        model: new SceneModel(gates),
        displayManager: new Displaymanager(),
        systemPrompt: "Test scenes.",
        compaction_config: { compaction_instructions: "Summarise." },
      })
        .fold(showMenuTool)
        .fold(reservationFormTool)
        .fold(bookTableTool(bookings));
      return foldTestTools(glove, gates);
    };
}
