import { z } from "zod";
import { Glove, MemoryStore, type Message, type PromptRequest, type StoreAdapter, type ToolResult } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { crashable, type Crash } from "./crash-store.js";

/**
 * A shop agent whose tool asks two questions with a recorded step between them, run by a series of
 * processes over one MemoryStore: each process but the last may die at a chosen store call; the
 * next one does what an app does on start (answers a stored question, or finishes the turn).
 */

/** What the person answers to each question. */
export const ANSWERS: Readonly<Record<string, string>> = { size: "M", colour: "blue" };

/** The tool's effects in the world, over all processes. */
export interface World {
  charged: number;
  shipped: number;
}

/** How the UI answers what a process shows: inside the display's notification, or a tick later. */
export type UiTiming = "sync" | "async";

/** One process's view: whether its tool shipped and whether its results reached the store. */
interface ProcessState {
  shipped: boolean;
  resultsStored: boolean;
}

export interface ScenarioOutcome {
  world: World;
  /** The conversation's store, as a process that starts now opens it. */
  store: StoreAdapter;
  /** Settles that won, by wait id. */
  wins: Map<string, number>;
  /** Crashes that fell between a step's work and its record (the work runs again on the replay). */
  stepWindows: number;
  /** Crashes after the tool's last line ran but before its result was stored (a replay runs it again). */
  shipWindows: number;
  /** Processes started, the last one the survivor. */
  processes: number;
  /** Store calls each process made (or made before it died). */
  calls: string[][];
}

const question = (input: unknown) => (input as { question: string }).question;

function shopGlove(store: StoreAdapter, world: World, me: ProcessState, ui: UiTiming, nextCallId: () => string): Glove {
  const model = new ScriptedModel([], { fallback: (request) => nextTurn(request, nextCallId) });
  const glove = new Glove({ store, model, systemPrompt: "You sell shirts." })
    .fold({
      name: "order_shirt",
      description: "Orders a shirt: asks the size, takes the payment, asks the colour, ships.",
      inputSchema: z.object({ item: z.string() }),
      async do(input, display) {
        const size = await display.pushAndWait<{ question: string }, string>({ input: { question: "size" } });
        const receipt = await display.step("charge", () => `receipt-${++world.charged}`);
        const colour = await display.pushAndWait<{ question: string }, string>({ input: { question: "colour" } });
        world.shipped++;
        me.shipped = true;
        return `${input.item} ${size} ${colour} ${receipt}`;
      },
    })
    .build();
  // The person at this process's UI answers every question it shows.
  glove.displayManager.subscribe((stack) => {
    for (const slot of stack) {
      const answer = () => glove.displayManager.resolve(slot.id, ANSWERS[question(slot.input)]);
      if (ui === "sync") answer();
      else setTimeout(answer, 0);
    }
  });
  return glove;
}

/** The model: asks for the tool on the user's message (a new call id each time), then reports its result. */
function nextTurn(request: PromptRequest, nextCallId: () => string): ScriptedTurn {
  const result = request.messages.at(-1)?.tool_results?.[0]?.result;
  if (result) return { text: `Done: ${result.status} ${String(result.data ?? result.message)}` };
  return { toolCalls: [{ name: "order_shirt", input: { item: "shirt" }, id: nextCallId() }] };
}

/** What an app does when it starts: answer a waiting question, send the request if it was lost, or finish the turn. */
async function app(glove: Glove, store: StoreAdapter): Promise<unknown> {
  const [waiting] = await glove.pendingSlots();
  if (waiting) return glove.resolveSlot(waiting.id, ANSWERS[question(waiting.input)]);
  const messages = await store.getMessages();
  if (!messages.some(isUserText)) return glove.processRequest("Order a shirt.");
  return glove.continueTurn();
}

const isUserText = (m: Message) => m.sender === "user" && !m.tool_results?.length;
const hasResults = (messages: unknown) =>
  Array.isArray(messages) && messages.some((m: Message) => (m.tool_results?.length ?? 0) > 0);

const counted = new WeakSet<StoreAdapter>();

/** Counts, by wait id, the settles through `store` that won (once per store instance). */
function countWins(store: StoreAdapter, wins: Map<string, number>): StoreAdapter {
  const settle = store.settleWait?.bind(store);
  if (settle && !counted.has(store)) {
    counted.add(store);
    store.settleWait = async (id, outcome) => {
      const settled = await settle(id, outcome);
      if (settled.won) wins.set(id, (wins.get(id) ?? 0) + 1);
      return settled;
    };
  }
  return store;
}

/** Opens one conversation's store for a process (a new connection, or the same MemoryStore). */
export type OpenConversation = () => StoreAdapter;

/** A new, empty conversation for each scenario: by default a MemoryStore every process shares. */
export type NewConversation = () => OpenConversation;

const memoryConversation: NewConversation = () => {
  const shared = new MemoryStore("shop");
  return () => shared;
};

/** Runs processes one after another, the i-th dying at `crashes[i]`, until one finishes the turn. */
export async function runWithCrashes(
  crashes: readonly Crash[],
  ui: UiTiming,
  conversation: NewConversation = memoryConversation,
): Promise<ScenarioOutcome> {
  const openStore = conversation();
  const wins = new Map<string, number>();
  const world: World = { charged: 0, shipped: 0 };
  const outcome: ScenarioOutcome = {
    world,
    store: openStore(),
    wins,
    stepWindows: 0,
    shipWindows: 0,
    processes: 0,
    calls: [],
  };
  let callIds = 0;
  for (let i = 0; i <= crashes.length; i++) {
    const me: ProcessState = { shipped: false, resultsStored: false };
    const crash = crashes[i];
    const process = crashable(countWins(openStore(), wins), crash, {
      forwarded: (method, args) => {
        if (method === "appendMessages" && hasResults(args[0])) me.resultsStored = true;
      },
      crashed: (method, args) => {
        const wait = args[0] as { kind?: string } | undefined;
        if (method === "addWait" && wait?.kind === "step" && !crash?.applied) outcome.stepWindows++;
        if (me.shipped && !me.resultsStored) outcome.shipWindows++;
      },
    });
    outcome.processes++;
    outcome.calls.push(process.calls);
    const glove = shopGlove(process.store, world, me, ui, () => `call-${++callIds}`);
    const ended = await Promise.race([
      app(glove, process.store).then(() => "finished" as const),
      process.died.then(() => "died" as const),
    ]);
    if (ended === "finished") return outcome;
  }
  throw new Error(`The last process died although it had no crash planned (${JSON.stringify(crashes)})`);
}

/** The result the conversation's tool call ended with (there is exactly one call when the history is valid). */
export async function finalResult(store: StoreAdapter): Promise<ToolResult | undefined> {
  return (await store.getMessages()).flatMap((m) => m.tool_results ?? []).at(-1);
}
