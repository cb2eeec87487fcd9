/**
 * A question asked two subagents deep, on the server: the slot says who asks what (origin), the
 * turn leaves memory as "waiting" when the server closes, and a server started again over the
 * same storage lists the question and resumes the whole chain when it is answered over HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Message, StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { createGloveServer, memoryStorage, type GloveServer, type ServerStorage } from "glove-server";
import { authenticate } from "./support/harness.js";
import { SseClient } from "./support/sse-client.js";
import { invoke, subagentChain } from "./support/subagent-chain.js";
import { expectValidHistory } from "./suite/server-suite.js";

type Scripts = { main: ScriptedStep[]; planner: ScriptedStep[]; researcher: ScriptedStep[] };
const chain = (store: StoreAdapter, scripts: Scripts, done: string[]) =>
  subagentChain(
    store,
    {
      main: new ScriptedModel(scripts.main),
      planner: new ScriptedModel(scripts.planner),
      researcher: new ScriptedModel(scripts.researcher),
    },
    done,
  );

const servers: GloveServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(storage: ServerStorage, scripts: Scripts, done: string[]) {
  const server = createGloveServer({
    agents: { assistant: ({ store }) => chain(store, scripts, done) },
    authenticate,
    store: storage,
  });
  servers.push(server);
  const { url } = await server.listen();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
  const api = async (path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: "Bearer alice", "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  return { server, url, api };
}

describe("a question asked inside subagents", () => {
  it("names who asks what, waits across a restart, and resumes the whole chain when answered", async () => {
    const storage = memoryStorage();
    const done: string[] = [];
    const first = await serve(
      storage,
      {
        main: [invoke("planner", "c-main")],
        planner: [invoke("researcher", "c-plan")],
        researcher: [{ toolCalls: [{ name: "pick_day", input: { topic: "trains" }, id: "c-pick" }] }],
      },
      done,
    );
    const id = (await first.api("/conversations", {})).body.id as string;
    const tab = new SseClient(`${first.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
    await tab.waitForEvent("snapshot");
    await first.api(`/conversations/${id}/messages`, { text: "Plan a trip" });
    const pushed = (await tab.waitForEvent("slot_push")).data as { slot: { id: string; origin: unknown } };
    const origin = {
      agentPath: ["planner", "researcher"],
      toolName: "pick_day",
      input: { topic: "trains" },
      subagentCallId: "c-main",
    };
    expect(pushed.slot.origin).toEqual(origin);

    // The main agent's only call waits (through its subagents) on a stored question: close leaves it waiting.
    await first.server.close();
    await tab.waitForEvent("turn_end");
    expect(tab.events.find((e) => e.event === "turn_end")?.data).toMatchObject({ status: "waiting" });
    await tab.close();

    const second = await serve(
      storage,
      {
        main: [{ text: "Trip planned." }],
        planner: [{ text: "Monday it is." }],
        researcher: [{ text: "Trains on Monday." }],
      },
      done,
    );
    const snapshot = (await second.api(`/conversations/${id}`)).body;
    expect(snapshot.slots).toEqual([
      expect.objectContaining({ id: pushed.slot.id, status: "pending", toolName: "pick_day", origin }),
    ]);
    expect(
      (await second.api(`/conversations/${id}/slots/${pushed.slot.id}`, { resolve: { day: "Monday" } })).status,
    ).toBe(200);
    let state = (await second.api(`/conversations/${id}`)).body;
    while (state.busy) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      state = (await second.api(`/conversations/${id}`)).body;
    }
    expect(done).toEqual(["Monday"]);
    expectValidHistory(state.messages as Message[]);
    expect((state.messages as Message[]).at(-1)?.text).toBe("Trip planned.");
    expect(state.slots).toEqual([]);
    // Its call has its result now: the question waits nowhere (subagent stores are searched below unanswered calls).
    expect(
      (await second.api(`/conversations/${id}/slots/${pushed.slot.id}`, { resolve: { day: "Friday" } })).status,
    ).toBe(404);
  });
});
