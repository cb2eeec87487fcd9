/**
 * A question asked two subagents deep, in the scale mode: the turn leaves its worker as "waiting",
 * the snapshot lists the subagent's question (with who asks), and the answer — recorded in the
 * subagent's store by the instance it reached — resumes the whole chain as a job, the tool's side
 * effect done once.
 */
import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { postgresStorage } from "glove-server/postgres";
import { SseClient } from "../support/sse-client.js";
import { invoke, subagentChain } from "../support/subagent-chain.js";
import { expectValidHistory } from "../suite/server-suite.js";
import { createConversation, inProcessScaleEnv, postMessage, scaledServer } from "./support/in-process.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

const env = inProcessScaleEnv("waitsub");

async function post(
  url: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("glove-server scale mode: a question asked inside subagents", () => {
  it("leaves the worker as waiting, is listed with its origin, refuses a second message, and its answer resumes the whole chain once", async () => {
    const done: string[] = [];
    const models = {
      main: new ScriptedModel([invoke("planner", "c-main"), { text: "Trip planned." }]),
      planner: new ScriptedModel([invoke("researcher", "c-plan"), { text: "Monday it is." }]),
      researcher: new ScriptedModel([
        { toolCalls: [{ name: "pick_day", input: { topic: "trains" }, id: "c-pick" }] },
        { text: "Trains on Monday." },
      ]),
    };
    const storage = postgresStorage({ pool: env.pool, schema: env.schema });
    const server = scaledServer(env, ({ store }) => subagentChain(store, models, done), {
      store: storage,
      idleTimeoutMs: 300,
    });
    const { url } = await server.listen();
    try {
      const id = await createConversation(url);
      const tab = new SseClient(`${url}/conversations/${id}/events`);
      await tab.waitForEvent("snapshot");
      expect((await postMessage(url, id, "Plan a trip")).status).toBe(202);
      const pushed = (await tab.waitForEvent("slot_push")).data as { slot: { id: string } };
      await tab.waitForEvent("turn_end", (data) => data.status === "waiting", PROMPT_WAIT_MS);

      const origin = {
        agentPath: ["planner", "researcher"],
        toolName: "pick_day",
        input: { topic: "trains" },
        subagentCallId: "c-main",
      };
      const waiting = (await (await fetch(`${url}/conversations/${id}`)).json()) as { slots: unknown[] };
      expect(waiting.slots).toEqual([
        expect.objectContaining({ id: pushed.slot.id, status: "pending", toolName: "pick_day", origin }),
      ]);
      // The question holds the conversation, as one of its own would.
      expect((await postMessage(url, id, "Anything else?")).status).toBe(409);
      expect((await post(url, `/conversations/${id}/slots/no-such-slot`, { resolve: { day: "Monday" } })).status).toBe(
        404,
      );

      const answered = await post(url, `/conversations/${id}/slots/${pushed.slot.id}`, { resolve: { day: "Monday" } });
      expect(answered).toMatchObject({
        status: 200,
        body: { slotId: pushed.slot.id, status: "resolved", turnId: expect.any(String) },
      });
      const end = await tab.waitForEvent("turn_end", (data) => data.turnId === answered.body.turnId, PROMPT_WAIT_MS);
      expect(end.data).toMatchObject({ status: "done" });
      // Its call has its result now: the question waits nowhere (as in the single process, where a
      // subagent's store is searched below unanswered calls only).
      expect(
        (await post(url, `/conversations/${id}/slots/${pushed.slot.id}`, { resolve: { day: "Friday" } })).status,
      ).toBe(404);

      expect(done).toEqual(["Monday"]);
      const state = (await (await fetch(`${url}/conversations/${id}`)).json()) as {
        slots: unknown[];
        messages: Message[];
      };
      expectValidHistory(state.messages);
      expect(state.messages.at(-1)?.text).toBe("Trip planned.");
      expect(state.slots).toEqual([]);
      await tab.close();
    } finally {
      await server.close();
    }
  }, 120_000);
});
