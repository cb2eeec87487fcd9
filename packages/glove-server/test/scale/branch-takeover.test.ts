/**
 * A regenerate or an edit whose worker died (decision 0025): the instance that takes the job over
 * forks when the dead worker's rewrite never landed, and otherwise continues the turn from the
 * stored branch — never forking twice, never sending an empty message. Clients get the whole
 * active branch first (the dead worker's branches_changed may be lost).
 */
import { describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import type { BranchOp } from "../../src/conversations/conversation-handle.js";
import type { Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { postgresStorage } from "glove-server/postgres";
import { conversationKeys } from "../../src/scale/redis/keys.js";
import { SseClient } from "../support/sse-client.js";
import { REDIS_URL } from "./support/scale-env.js";
import { createConversation, historyOf, inProcessScaleEnv, scaledServer, testGlove } from "./support/in-process.js";

const env = inProcessScaleEnv("branchtakeover");
const { schema, prefix, pool, redis } = env;

const hi: Message = { sender: "user", id: "m-hi", text: "hi" };
const hello: Message = { sender: "agent", id: "m-hello", text: "Hello." };

/** The dead worker's leftovers (`forked`: its rewrite landed and was recorded), then its job queued again. */
async function takeOver(op: BranchOp, forked: boolean, model: ScriptedModel) {
  const storage = postgresStorage({ pool, schema });
  const server = scaledServer(env, ({ store }) => testGlove(store, model), { turnLockMs: 1000, store: storage });
  const { url } = await server.listen();
  const id = await createConversation(url);
  const store = await storage.store(id);
  await store.appendMessages([hi, hello]);
  const keep = op.kind === "regenerate" ? 1 : 0;
  if (forked)
    await store.rewriteBranches!({
      expected: { count: 2, lastId: "m-hello" },
      keep,
      remove: [],
      add: [{ id: "b-dead", at: keep, parentId: keep === 0 ? null : "m-hi", messages: [hi, hello].slice(keep) }],
      append: [],
    });
  const turnId = crypto.randomUUID();
  const keys = conversationKeys(prefix, id);
  await redis.set(keys.turn, `${turnId}|${Date.now()}`);
  await redis.hset(
    keys.state,
    "turnBase",
    String(forked ? keep : 2),
    "baseTurn",
    turnId,
    "messageCount",
    "2",
    ...(forked ? ["branched", turnId] : []),
  );
  const tab = new SseClient(`${url}/conversations/${id}/events`);
  await tab.waitForEvent("snapshot");
  const queue = new Queue("glove-turns", {
    connection: { host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) },
    prefix: `${prefix}:bull`,
  });
  await queue.add(
    "turn",
    {
      conversationId: id,
      turnId,
      text: op.kind === "edit" ? op.text : "",
      owner: "ada",
      agent: "assistant",
      branch: op,
    },
    { jobId: turnId },
  );
  await queue.close();
  expect((await tab.waitForEvent("turn_end")).data).toEqual({ turnId, status: "done" });
  const history = await historyOf(url, id);
  const branches = await store.getBranches!();
  await tab.close();
  await server.close();
  return { events: tab.events, history, branches };
}

describe("glove-server scale mode: taking over a regenerate or an edit", () => {
  it("the fork never landed: the new worker forks once and answers again", async () => {
    const model = new ScriptedModel([{ text: "Hello again." }]);
    const { events, history, branches } = await takeOver({ kind: "regenerate" }, false, model);
    expect(model.requests.map((r) => r.messages.map((m) => m.text))).toEqual([["hi"]]);
    expect(history.map((m) => m.text)).toEqual(["hi", "Hello again."]);
    expect(branches.map((b) => b.messages.map((m) => m.text))).toEqual([["Hello."]]);
    expect(events.map((e) => e.event)).toContain("branches_changed");
  });

  it("the regenerate's fork landed: the turn continues from the user message, with no second fork and no empty message", async () => {
    const model = new ScriptedModel([{ text: "Hello again." }]);
    const { events, history, branches } = await takeOver({ kind: "regenerate" }, true, model);
    expect(model.requests.map((r) => r.messages.map((m) => m.text))).toEqual([["hi"]]);
    expect(history.map((m) => m.text)).toEqual(["hi", "Hello again."]);
    expect(branches.map((b) => b.id)).toEqual(["b-dead"]);
    // Clients got the forked branch whole before the answer.
    const first = events.find((e) => e.event === "branches_changed")!.data as { keep: number; messages: Message[] };
    expect([first.keep, first.messages.map((m) => m.text)]).toEqual([0, ["hi"]]);
  });

  it("the edit's fork landed but its message was not stored: it is sent once, in place of the old one", async () => {
    const model = new ScriptedModel([{ text: "Hi there, edited." }]);
    const { history, branches } = await takeOver({ kind: "edit", messageId: "m-hi", text: "hi, edited" }, true, model);
    expect(model.requests.map((r) => r.messages.map((m) => m.text))).toEqual([["hi, edited"]]);
    expect(history.map((m) => m.text)).toEqual(["hi, edited", "Hi there, edited."]);
    expect(branches.map((b) => b.messages.map((m) => m.text))).toEqual([["hi", "Hello."]]);
  });
});
