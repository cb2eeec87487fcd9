/**
 * Questions asked inside subagents (docs/decisions/0023): stored in the subagent's durable
 * sub-store, shown with their origin (the agents' path, the inner tool and its input), listed and
 * answered by any Glove over the parent's store; the answer resumes the whole chain — the parent's
 * subagent call runs again, its child continues its stored turn, and the inner tool meets its
 * recorded answer. An ephemeral sub-store's questions die with the process.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Glove,
  MemoryStore,
  SlotAnswerError,
  SUBAGENT_DISPATCH_TOOL_NAME,
  type GloveFoldArgs,
  type Slot,
  type StoreAdapter,
  type SubAgentFactory,
  type SubscriberEvent,
} from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";

const invoke = (name: string, prompt: string, id: string): ScriptedStep => ({
  toolCalls: [{ name: SUBAGENT_DISPATCH_TOOL_NAME, input: { name, prompt }, id }],
});
const lookupCall: ScriptedStep = { toolCalls: [{ name: "lookup", input: { topic: "trains" }, id: "c-look" }] };

interface World {
  /** Runs of the asking tool, and what it did after the wait (must happen once). */
  runs: number;
  after: string[];
  /** Children the factories built. */
  built: string[];
}

/** A tool that asks for a date, then does what must happen once. */
function lookup(world: World): GloveFoldArgs<{ topic: string }> {
  return {
    name: "lookup",
    description: "Looks a topic up; asks the user which day.",
    inputSchema: z.object({ topic: z.string() }),
    async do(input, display) {
      world.runs++;
      const answer = await display.pushAndWait<unknown, { date: string }>({
        input: { question: `Which day for ${input.topic}?` },
      });
      world.after.push(`${input.topic} on ${answer.date}`);
      return `${input.topic} run on ${answer.date}`;
    },
  };
}

/** A child Glove as a factory builds it: on its sub-store, sharing the parent's display. */
function child(
  name: string,
  model: ScriptedModel,
  world: World,
  durable: boolean,
  build: (glove: Glove) => Glove,
): SubAgentFactory {
  return async ({ parentStore, displayManager }) => {
    world.built.push(name);
    const glove = build(new Glove({ model, displayManager, systemPrompt: `You are the ${name}.` }));
    return glove.build(await parentStore.createSubAgentStore!(name, { durable }));
  };
}

/** main → planner → researcher → lookup; one process's Gloves (each agent's model plays its script). */
function chain(
  store: StoreAdapter,
  world: World,
  scripts: { main: ScriptedStep[]; planner: ScriptedStep[]; researcher: ScriptedStep[] },
): Glove {
  const researcher = child("researcher", new ScriptedModel(scripts.researcher), world, true, (g) =>
    g.fold(lookup(world)),
  );
  const planner = child("planner", new ScriptedModel(scripts.planner), world, true, (g) =>
    g.defineSubAgent({ name: "researcher", factory: researcher }),
  );
  return new Glove({ store, model: new ScriptedModel(scripts.main), systemPrompt: "You coordinate." })
    .defineSubAgent({ name: "planner", factory: planner })
    .build();
}

const firstProcess = {
  main: [invoke("planner", "Plan a trip", "c-main")],
  planner: [invoke("researcher", "Find trains", "c-plan")],
  researcher: [lookupCall],
};
const secondProcess = {
  main: [{ text: "Trip planned." }],
  planner: [{ text: "Take the Monday train." }],
  researcher: [{ text: "Trains run on Monday." }],
};

/** The slots on the display once `count` are shown. */
async function shown(glove: Glove, count = 1): Promise<Slot<unknown>[]> {
  while (glove.displayManager.stack.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
  return glove.displayManager.stack;
}

/** A first process that got as far as the researcher's question, then went away. */
async function abandonedAtQuestion(name: string): Promise<{ store: MemoryStore; world: World; slot: Slot<unknown> }> {
  const store = new MemoryStore(name);
  const world: World = { runs: 0, after: [], built: [] };
  const first = chain(store, world, firstProcess);
  void first.processRequest("Plan me a trip").catch(() => undefined);
  const [slot] = await shown(first);
  return { store, world, slot: slot! };
}

/** The researcher's durable sub-store, as the factories open it. */
async function researcherStoreOf(store: MemoryStore): Promise<StoreAdapter> {
  return (await store.createSubAgentStore("planner", { durable: true })).createSubAgentStore!("researcher", {
    durable: true,
  });
}

/** Who asks what, seen from the main agent: through its call c-main, the planner's researcher's lookup. */
const origin = {
  agentPath: ["planner", "researcher"],
  toolName: "lookup",
  input: { topic: "trains" },
  subagentCallId: "c-main",
};

describe("questions asked two subagents deep", () => {
  it("the slot names who asks what, and a live answer is recorded in the researcher's store", async () => {
    const store = new MemoryStore("nested-live");
    const world: World = { runs: 0, after: [], built: [] };
    const glove = chain(store, world, {
      main: [...firstProcess.main, { text: "Done." }],
      planner: [...firstProcess.planner, { text: "Planned." }],
      researcher: [lookupCall, { text: "Found." }],
    });
    const run = glove.processRequest("Plan me a trip");
    const slot = (await shown(glove))[0]!;
    expect(slot).toMatchObject({ renderer: "lookup", toolName: "lookup", toolCallId: "c-look", origin });
    const researcherStore = await researcherStoreOf(store);
    expect(await researcherStore.getWaits!({ status: "pending" })).toEqual([
      expect.objectContaining({ id: slot.id, kind: "question", toolCallId: "c-look" }),
    ]);
    expect(await glove.pendingSlots()).toEqual([expect.objectContaining({ id: slot.id, toolName: "lookup", origin })]);

    await glove.resolveSlot(slot.id, { date: "Friday" });
    expect((await run).text).toBe("Done.");
    expect((await researcherStore.getWaits!()).map((w) => [w.status, w.value])).toEqual([
      ["resolved", { date: "Friday" }],
    ]);
    expect(world).toEqual({ runs: 1, after: ["trains on Friday"], built: ["planner", "researcher"] });
  });

  it("a new parent Glove over the same store lists the question and its answer finishes the whole chain", async () => {
    const { store, world, slot } = await abandonedAtQuestion("nested-restart");
    // The first process is gone; another one answers.
    const second = chain(store, world, secondProcess);
    const events: SubscriberEvent[] = [];
    second.addSubscriber({ record: (type, data) => void events.push({ type, ...data } as SubscriberEvent) });
    expect(await second.pendingSlots()).toEqual([
      expect.objectContaining({
        id: slot.id,
        renderer: "lookup",
        toolName: "lookup",
        toolCallId: "c-look",
        input: { question: "Which day for trains?" },
        origin,
      }),
    ]);

    const result = await second.resolveSlot(slot.id, { date: "Monday" });
    expect(result?.text).toBe("Trip planned.");
    // The inner tool ran again, met the recorded answer, and did its work once.
    expect(world).toEqual({
      runs: 2,
      after: ["trains on Monday"],
      built: ["planner", "researcher", "planner", "researcher"],
    });
    expect(second.displayManager.stack).toEqual([]);
    expect(await second.pendingSlots()).toEqual([]);
    const results = (await store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results).toEqual([
      expect.objectContaining({
        call_id: "c-main",
        result: expect.objectContaining({
          status: "success",
          data: { subagent: "planner", content: "Take the Monday train." },
        }),
      }),
    ]);
    const resumed = events.flatMap((e) => (e.type === "turn_resumed" ? [[e.agentPath ?? [], e.call_id]] : []));
    expect(resumed).toEqual([
      [[], "c-main"],
      [["planner"], "c-plan"],
      [["planner", "researcher"], "c-look"],
    ]);
  });

  it("two processes answering the same nested question: the first answer wins, the chain finishes once", async () => {
    const { store, world, slot } = await abandonedAtQuestion("nested-race");
    const a = chain(store, world, secondProcess);
    const b = chain(store, world, secondProcess);
    const outcomes = await Promise.allSettled([
      a.resolveSlot(slot.id, { date: "Monday" }),
      b.resolveSlot(slot.id, { date: "Sunday" }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(SlotAnswerError.isInstance(refused.reason) && refused.reason.reason).toBe("already_answered");
    expect(world.after).toHaveLength(1);
  });
});

describe("continueTurn (a turn taken over after a crash) with a question below a subagent call", () => {
  it("answered in the store before the process died: the chain runs again and meets it", async () => {
    const { store, world, slot } = await abandonedAtQuestion("nested-continue-answered");
    const researcherStore = await researcherStoreOf(store);
    await researcherStore.settleWait!(slot.id, {
      status: "resolved",
      value: { date: "Sunday" },
      settled_at: new Date().toISOString(),
    });

    const second = chain(store, world, secondProcess);
    expect((await second.continueTurn()).text).toBe("Trip planned.");
    expect(world).toEqual({
      runs: 2,
      after: ["trains on Sunday"],
      built: ["planner", "researcher", "planner", "researcher"],
    });
  });

  it("still waiting: the subagent call is answered as interrupted, as a waiting call of the agent's own", async () => {
    const { store, world } = await abandonedAtQuestion("nested-continue-waiting");

    const second = chain(store, world, { ...secondProcess, main: [{ text: "The planner was interrupted." }] });
    expect((await second.continueTurn()).text).toBe("The planner was interrupted.");
    const results = (await store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results.map((r) => [r.call_id, r.result.status])).toEqual([["c-main", "aborted"]]);
    expect(world.built).toEqual(["planner", "researcher"]);
  });
});

describe("a subagent on an ephemeral sub-store", () => {
  it("its question cannot outlive the process: not listed, and a resumed turn answers its call as interrupted", async () => {
    const store = new MemoryStore("nested-ephemeral");
    const world: World = { runs: 0, after: [], built: [] };
    let confirmed = 0;
    const agent = (steps: ScriptedStep[]) =>
      new Glove({ store, model: new ScriptedModel(steps), systemPrompt: "You coordinate." })
        .fold({
          name: "confirm",
          description: "Asks the user to confirm.",
          inputSchema: z.object({}),
          async do(_input, display) {
            const ok = await display.pushAndWait<unknown, boolean>({ input: { question: "Go ahead?" } });
            if (ok) confirmed++;
            return ok ? "confirmed" : "refused";
          },
        })
        .defineSubAgent({
          name: "planner",
          factory: child("planner", new ScriptedModel([lookupCall]), world, false, (g) => g.fold(lookup(world))),
        })
        .build();
    const both: ScriptedStep = {
      toolCalls: [
        { name: SUBAGENT_DISPATCH_TOOL_NAME, input: { name: "planner", prompt: "Find trains" }, id: "c-main" },
        { name: "confirm", input: {}, id: "c-conf" },
      ],
    };
    const first = agent([both]);
    void first.processRequest("Plan and confirm").catch(() => undefined);
    const slots = await shown(first, 2);
    const nested = slots.find((s) => s.origin !== undefined)!;
    const own = slots.find((s) => s.origin === undefined)!;
    expect(nested.origin).toEqual({
      agentPath: ["planner"],
      toolName: "lookup",
      input: { topic: "trains" },
      subagentCallId: "c-main",
    });

    const second = agent([{ text: "Confirmed; the planner was interrupted." }]);
    expect((await second.pendingSlots()).map((q) => q.id)).toEqual([own.id]);
    const unknown = await second.resolveSlot(nested.id, { date: "Monday" }).catch((error: unknown) => error);
    expect(SlotAnswerError.isInstance(unknown) && unknown.reason).toBe("unknown_slot");

    expect((await second.resolveSlot(own.id, true))?.text).toBe("Confirmed; the planner was interrupted.");
    const results = (await store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results.map((r) => [r.call_id, r.result.status])).toEqual([
      ["c-main", "aborted"],
      ["c-conf", "success"],
    ]);
    // The subagent call was not run again: one planner, one lookup, nothing after its wait.
    expect(world).toEqual({ runs: 1, after: [], built: ["planner"] });
    expect(confirmed).toBe(1);
  });
});
