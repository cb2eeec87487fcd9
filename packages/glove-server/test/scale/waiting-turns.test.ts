/**
 * Questions that outlive the worker, in the scale mode: a turn that only waits for a person (its
 * question stored in PostgreSQL) leaves its worker as turn_end "waiting" (the instance closing, or
 * idle); the snapshot on any instance lists the question; an answer posted to any instance is
 * checked and recorded there (400 invalid, 409 once answered, 404 unknown) and resumes the turn as
 * a job: turn_start, turn_resumed … turn_end, the tool's side effect done once.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import type { AgentFactory } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { SseClient } from "../support/sse-client.js";
import { expectValidHistory } from "../suite/server-suite.js";
import {
  createConversation,
  historyOf,
  inProcessScaleEnv,
  postMessage,
  scaledServer,
  testGlove,
} from "./support/in-process.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

const env = inProcessScaleEnv("waiting");
const bookRoom = { toolCalls: [{ name: "book", input: { room: "7" }, id: "book-1" }] };

/** An agent whose `book` tool holds the room once (a recorded step), then asks the user to confirm. */
function booking(model: ScriptedModel, holds: string[]): AgentFactory {
  return ({ store }) =>
    testGlove(store, model).fold({
      name: "book",
      description: "Holds a room, then asks the user to confirm.",
      inputSchema: z.object({ room: z.string() }),
      resolveSchema: z.object({ confirm: z.boolean() }),
      do: async (input, display) => {
        await display.step("hold", () => holds.push(input.room));
        const answer = await display.pushAndWait<unknown, { confirm: boolean }>({ input });
        return answer.confirm ? `booked ${input.room}` : "released";
      },
    });
}

async function answer(
  url: string,
  id: string,
  slotId: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/conversations/${id}/slots/${slotId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function snapshot(
  url: string,
  id: string,
): Promise<{ busy: boolean; slots: Array<Record<string, unknown>>; messages: Message[] }> {
  return (await (await fetch(`${url}/conversations/${id}`)).json()) as {
    busy: boolean;
    slots: Array<Record<string, unknown>>;
    messages: Message[];
  };
}

/** One instance whose waiting turns leave their worker after 300 ms without events, and a conversation whose turn did. */
async function waitingTurn(script: ConstructorParameters<typeof ScriptedModel>[0]) {
  const holds: string[] = [];
  const storage = postgresStorage({ pool: env.pool, schema: env.schema });
  const server = scaledServer(env, booking(new ScriptedModel(script), holds), { store: storage, idleTimeoutMs: 300 });
  const { url } = await server.listen();
  const id = await createConversation(url);
  const tab = new SseClient(`${url}/conversations/${id}/events`);
  await tab.waitForEvent("snapshot");
  expect((await postMessage(url, id, "Book")).status).toBe(202);
  await tab.waitForEvent("turn_end", (data) => data.status === "waiting", PROMPT_WAIT_MS);
  return { server, url, id, tab, holds };
}

describe("glove-server scale mode: a turn that waits for a person", () => {
  it("leaves the instance that closes as waiting; the answer, posted to another instance, resumes it once", async () => {
    const storage = postgresStorage({ pool: env.pool, schema: env.schema });
    const holds: string[] = [];
    const model = new ScriptedModel([bookRoom, { text: "Room 7 is yours." }]);
    const a = scaledServer(env, booking(model, holds), { store: storage });
    const urlA = (await a.listen()).url;
    const id = await createConversation(urlA);
    const tabA = new SseClient(`${urlA}/conversations/${id}/events`);
    await tabA.waitForEvent("snapshot");
    expect((await postMessage(urlA, id, "Book room 7")).status).toBe(202);
    const slotId = ((await tabA.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;
    await tabA.close();

    const b = scaledServer(env, booking(model, holds), { store: storage });
    const urlB = (await b.listen()).url;
    const tab = new SseClient(`${urlB}/conversations/${id}/events`);
    await tab.waitForEvent("snapshot");
    await a.close(); // the only worker that ran the turn leaves while the question waits
    expect((await tab.waitForEvent("turn_end", undefined, PROMPT_WAIT_MS)).data).toMatchObject({ status: "waiting" });
    expect(tab.events.map((e) => e.event)).not.toContain("turn_resumed"); // not handed over
    // Nothing was answered as interrupted.
    expect((await (await storage.store(id)).getMessages()).flatMap((m) => m.tool_results ?? [])).toEqual([]);

    const waiting = await snapshot(urlB, id);
    expect(waiting.busy).toBe(false);
    expect(waiting.slots).toEqual([
      expect.objectContaining({ id: slotId, toolName: "book", toolCallId: "book-1", mode: "wait", status: "pending" }),
    ]);
    expect((await answer(urlB, id, "no-such-question", { resolve: { confirm: true } })).status).toBe(404);
    const invalid = await answer(urlB, id, slotId, { resolve: { confirm: "yes" } });
    expect(invalid.status).toBe(400);
    expect((await snapshot(urlB, id)).slots).toEqual([expect.objectContaining({ id: slotId, status: "pending" })]);

    const answered = await answer(urlB, id, slotId, { resolve: { confirm: true } });
    expect(answered).toEqual({ status: 200, body: { slotId, status: "resolved", turnId: expect.any(String) } });
    const end = await tab.waitForEvent("turn_end", (data) => data.turnId === answered.body.turnId, PROMPT_WAIT_MS);
    expect(end.data).toEqual({ turnId: answered.body.turnId, status: "done" });
    const resumed = tab.events.slice(tab.events.findIndex((e) => e.event === "turn_end") + 1).map((e) => e.event);
    expect(resumed.indexOf("turn_start")).toBeLessThan(resumed.indexOf("turn_resumed"));
    expect(tab.events.find((e) => e.event === "turn_resumed")?.data).toMatchObject({
      turnId: answered.body.turnId,
      slotId,
      toolCallId: "book-1",
    });
    expect(resumed).not.toContain("slot_push"); // met its recorded answer: not asked again

    expect((await answer(urlB, id, slotId, { resolve: { confirm: false } })).status).toBe(409);
    const history = await historyOf(urlB, id);
    expectValidHistory(history);
    expect(
      history.flatMap((m) => m.tool_results ?? []).map((r) => [r.call_id, r.result.status, r.result.data]),
    ).toEqual([["book-1", "success", "booked 7"]]);
    expect(history.at(-1)?.text).toBe("Room 7 is yours.");
    expect(holds).toEqual(["7"]);
    await tab.close();
    await b.close();
  });

  it("leaves its worker when idle; two answers at once through two instances: one resumes the turn, the other gets 409", async () => {
    const storage = postgresStorage({ pool: env.pool, schema: env.schema });
    const holds: string[] = [];
    const model = new ScriptedModel([bookRoom, { text: "Released." }]);
    const servers = [0, 1].map(() => scaledServer(env, booking(model, holds), { store: storage, idleTimeoutMs: 300 }));
    const [urlA, urlB] = await Promise.all(servers.map(async (server) => (await server.listen()).url));
    const id = await createConversation(urlA!);
    const tab = new SseClient(`${urlA}/conversations/${id}/events`);
    await tab.waitForEvent("snapshot");
    await postMessage(urlA!, id, "Book room 7");
    const slotId = ((await tab.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;
    expect((await tab.waitForEvent("turn_end", undefined, PROMPT_WAIT_MS)).data).toMatchObject({ status: "waiting" });

    const answers = await Promise.all([
      answer(urlA!, id, slotId, { reject: "changed my mind" }),
      answer(urlB!, id, slotId, { reject: "no" }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.status === 200)!;
    expect(won.body).toMatchObject({ slotId, status: "rejected" });
    await tab.waitForEvent("turn_end", (data) => data.turnId === won.body.turnId, PROMPT_WAIT_MS);
    const history = await historyOf(urlB!, id);
    expectValidHistory(history);
    const results = history.flatMap((m) => m.tool_results ?? []);
    expect(results).toHaveLength(1);
    expect(results[0]!.result.status).not.toBe("aborted"); // the tool met the refusal; it was not interrupted
    expect(history.at(-1)?.text).toBe("Released.");
    expect(holds).toEqual(["7"]);
    expect(tab.events.filter((e) => e.event === "turn_start")).toHaveLength(2);
    await tab.close();
    await Promise.all(servers.map((server) => server.close()));
  });

  it("waits on two questions: the first answer is only recorded, the last one resumes the turn, each call once", async () => {
    const twoRooms = {
      toolCalls: [
        { name: "book", input: { room: "7" }, id: "b7" },
        { name: "book", input: { room: "8" }, id: "b8" },
      ],
    };
    const { server, url, id, tab, holds } = await waitingTurn([twoRooms, { text: "Both are yours." }]);
    const slots = (await snapshot(url, id)).slots as Array<{ id: string; toolCallId: string }>;
    expect(slots.map((slot) => slot.toolCallId).sort()).toEqual(["b7", "b8"]);
    const [first, last] = [
      slots.find((slot) => slot.toolCallId === "b7")!,
      slots.find((slot) => slot.toolCallId === "b8")!,
    ];

    expect(await answer(url, id, first.id, { resolve: { confirm: true } })).toEqual({
      status: 200,
      body: { slotId: first.id, status: "resolved" },
    });
    const between = await snapshot(url, id);
    expect(between.busy).toBe(false);
    expect(between.slots).toEqual([expect.objectContaining({ id: last.id, status: "pending" })]);
    const resumed = await answer(url, id, last.id, { resolve: { confirm: true } });
    expect(resumed.body.turnId).toEqual(expect.any(String));
    await tab.waitForEvent(
      "turn_end",
      (data) => data.turnId === resumed.body.turnId && data.status === "done",
      PROMPT_WAIT_MS,
    );
    const history = await historyOf(url, id);
    expectValidHistory(history);
    const results = history
      .flatMap((m) => m.tool_results ?? [])
      .map((r) => [r.call_id, r.result.status, r.result.data]);
    expect(results.sort()).toEqual([
      ["b7", "success", "booked 7"],
      ["b8", "success", "booked 8"],
    ]);
    expect(holds.sort()).toEqual(["7", "8"]);
    await tab.close();
    await server.close();
  });

  it("refuses regenerate and edit while it waits (409 naming the question), before anything is queued or changed (decision 0025)", async () => {
    const { server, url, id, tab } = await waitingTurn([bookRoom, { text: "Released." }]);
    const slotId = ((await tab.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;
    const before = await historyOf(url, id);
    const post = (path: string, body: unknown) =>
      fetch(`${url}/conversations/${id}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const refused of [
      await post("/regenerate", {}),
      await post(`/messages/${before[0]!.id}/edit`, { text: "Book room 8" }),
    ]) {
      expect(refused.status).toBe(409);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("GLOVE_WAITING_FOR_ANSWER");
      expect(error.message).toContain(slotId);
    }
    expect(await historyOf(url, id)).toEqual(before);
    // The claim was given back: the question can still be answered and resumes the turn here.
    expect((await answer(url, id, slotId, { resolve: { confirm: false } })).status).toBe(200);
    await tab.waitForEvent("turn_end", (data) => data.status === "done", PROMPT_WAIT_MS);
    expect((await historyOf(url, id)).at(-1)?.text).toBe("Released.");
    await tab.close();
    await server.close();
  });

  it("while the asking turn is still on its worker, new work gets the same 409 GLOVE_WAITING_FOR_ANSWER as after it left", async () => {
    const storage = postgresStorage({ pool: env.pool, schema: env.schema });
    const server = scaledServer(env, booking(new ScriptedModel([bookRoom, { text: "Booked." }]), []), {
      store: storage,
    });
    const { url } = await server.listen();
    const id = await createConversation(url);
    const tab = new SseClient(`${url}/conversations/${id}/events`);
    await tab.waitForEvent("snapshot");
    expect((await postMessage(url, id, "Book")).status).toBe(202);
    const slotId = ((await tab.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;
    // The turn holds the conversation on its worker, showing the question.
    expect(await snapshot(url, id)).toMatchObject({ busy: true });
    const first = (await historyOf(url, id))[0]!;
    const post = (path: string, body: unknown) =>
      fetch(`${url}/conversations/${id}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const [path, body] of [
      ["/messages", { text: "Something else" }],
      ["/regenerate", {}],
      [`/messages/${first.id}/edit`, { text: "Book room 8" }],
      [`/branches/${first.id}`, {}],
    ] as const) {
      const refused = await post(path, body);
      expect(refused.status, path).toBe(409);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code, path).toBe("GLOVE_WAITING_FOR_ANSWER");
      expect(error.message).toContain(slotId);
    }
    expect((await answer(url, id, slotId, { resolve: { confirm: true } })).status).toBe(200);
    await tab.waitForEvent("turn_end", (data) => data.status === "done", PROMPT_WAIT_MS);
    await tab.close();
    await server.close();
  });

  it("holds the conversation while it waits: a new message is a 409; an abort withdraws the question and the call ends aborted", async () => {
    const { server, url, id, tab } = await waitingTurn([bookRoom, { text: "Hello again." }]);
    const slotId = ((await tab.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;

    const refused = await postMessage(url, id, "Something else");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("GLOVE_WAITING_FOR_ANSWER");
    const aborted = (await (await fetch(`${url}/conversations/${id}/abort`, { method: "POST" })).json()) as Record<
      string,
      unknown
    >;
    expect(aborted).toMatchObject({ aborted: true, status: "aborted" });
    await tab.waitForEvent("slot_settled", (data) => data.slotId === slotId && data.status === "closed");
    await tab.waitForEvent("messages_appended", (data) =>
      (data.messages as Message[]).some((m) => m.tool_results?.length),
    );
    expect((await snapshot(url, id)).slots).toEqual([]);
    expect((await answer(url, id, slotId, { resolve: { confirm: true } })).status).toBe(409);

    expect((await postMessage(url, id, "Hello")).status).toBe(202);
    await tab.waitForEvent("turn_end", (data) => data.status === "done", PROMPT_WAIT_MS);
    const history = await historyOf(url, id);
    expectValidHistory(history);
    expect(history.flatMap((m) => m.tool_results ?? []).map((r) => [r.call_id, r.result.status])).toEqual([
      ["book-1", "aborted"],
    ]);
    expect(history.at(-1)?.text).toBe("Hello again.");
    await tab.close();
    await server.close();
  });
});
