/**
 * A worker SIGKILLed while its turn waits for a person: the instance that takes the job over finds
 * the question stored and pending, so it ends the turn as "waiting" instead of answering the call
 * as interrupted; the answer, posted to that instance, resumes the turn once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { buildForChildProcesses } from "../../../../test-support/child-processes.js";
import { SseClient } from "../support/sse-client.js";
import { expectValidHistory } from "../suite/server-suite.js";
import { apiOf, killAll, startInstance, type Instance } from "./support/scale-processes.js";
import { dropRedisPrefix, dropSchema, REDIS_URL, uniqueName } from "./support/scale-env.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const schema = uniqueName("waitkill");
const prefix = uniqueName("waitkill");
const instances: Instance[] = [];
const clients: SseClient[] = [];

beforeAll(() => buildForChildProcesses("packages/glove-server"), SLOW_WORK_MS);
afterAll(async () => {
  for (const instance of instances) if (instance.stderr()) console.warn(instance.stderr().slice(-3000));
  await Promise.all(clients.map((c) => c.close()));
  killAll();
  await dropRedisPrefix(prefix);
  await dropSchema(schema);
});

async function start(): Promise<Instance> {
  const instance = await startInstance(schema, prefix, REDIS_URL, 1000);
  instances.push(instance);
  return instance;
}

function stream(instance: Instance, id: string): SseClient {
  const client = new SseClient(`${instance.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
  clients.push(client);
  return client;
}

describe("glove-server scale mode: the worker of a waiting turn is killed", () => {
  it(
    "the takeover ends the turn as waiting; the answer posted to the other instance resumes it (400 invalid, then 200, then 409)",
    async () => {
      const a = await start(); // the only instance when the message comes: its worker runs the turn
      const apiA = apiOf(a.url);
      const id = (await apiA("/conversations", {})).body.id as string;
      const tabA = stream(a, id);
      await tabA.waitForEvent("snapshot");
      const sent = await apiA(`/conversations/${id}/messages`, { text: "ask k1" });
      expect(sent.status).toBe(202);
      const slotId = ((await tabA.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;

      const b = await start();
      const apiB = apiOf(b.url);
      const tab = stream(b, id);
      await tab.waitForEvent("snapshot");
      a.child.kill("SIGKILL");
      expect(await a.exited).toBe("SIGKILL");
      const ended = await tab.waitForEvent("turn_end", undefined, PROMPT_WAIT_MS);
      expect(ended.data).toEqual({ turnId: sent.body.turnId, status: "waiting" });
      // B took the job over (BullMQ: it resumed the turn, found it waiting); the owner engine ends it
      // as waiting when it takes the conversation over, as one process does after a restart.
      if (process.env.GLOVE_SCALE_ENGINE !== "owner")
        expect(tab.events.some((e) => e.event === "turn_resumed")).toBe(true);

      const waiting = (await apiB(`/conversations/${id}`)).body as {
        busy: boolean;
        slots: Array<Record<string, unknown>>;
        messages: Message[];
      };
      expect(waiting.busy).toBe(false);
      expect(waiting.slots).toEqual([expect.objectContaining({ id: slotId, toolName: "ask_age", status: "pending" })]);
      // Not answered as interrupted.
      expect(waiting.messages.flatMap((m) => m.tool_results ?? [])).toEqual([]);

      const invalid = await apiB(`/conversations/${id}/slots/${slotId}`, { resolve: { age: "forty" } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.issues[0].path).toBe("age");
      expect((await apiB(`/conversations/${id}`)).body.slots).toEqual([
        expect.objectContaining({ id: slotId, status: "pending" }),
      ]);

      const answered = await apiB(`/conversations/${id}/slots/${slotId}`, { resolve: { age: 40 } });
      expect(answered.status).toBe(200);
      expect(answered.body).toEqual({ slotId, status: "resolved", turnId: expect.any(String) });
      const done = await tab.waitForEvent("turn_end", (data) => data.turnId === answered.body.turnId, PROMPT_WAIT_MS);
      expect(done.data).toEqual({ turnId: answered.body.turnId, status: "done" });
      expect(
        tab.events.find(
          (e) => e.event === "turn_resumed" && (e.data as { turnId: string }).turnId === answered.body.turnId,
        )?.data,
      ).toMatchObject({ slotId });
      expect((await apiB(`/conversations/${id}/slots/${slotId}`, { resolve: { age: 41 } })).status).toBe(409);

      const history = (await apiB(`/conversations/${id}`)).body.messages as Message[];
      expectValidHistory(history);
      expect(
        history.flatMap((m) => m.tool_results ?? []).map((r) => [r.tool_name, r.result.status, r.result.data]),
      ).toEqual([["ask_age", "success", { age: 40 }]]);
      expect(history.filter((m) => m.sender === "agent" && !m.tool_calls?.length).map((m) => m.text)).toEqual([
        'age {"age":40} k1',
      ]);
    },
    SLOW_WORK_MS,
  );
});
