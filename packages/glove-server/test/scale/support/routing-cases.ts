import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { buildForChildProcesses } from "../../../../../test-support/child-processes.js";
import { SseClient } from "../../support/sse-client.js";
import { expectValidHistory } from "../../suite/server-suite.js";
import { counted } from "../../suite/stats-cases.js";
import { apiOf, killAll, startInstance, type Api, type Instance } from "./scale-processes.js";
import { dropRedisPrefix, dropSchema, REDIS_URL, uniqueName } from "./scale-env.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../../test-support/timeouts.js";

/** Which turn engine the instances run: BullMQ jobs, or the owner of each conversation (one engine). */
export type ScaleEngine = "bullmq" | "owner";

/**
 * Three processes of the scale mode: any instance answers any request of any conversation,
 * events resume on any instance, many conversations at once without cross-talk.
 */
export function describeRouting(engine: ScaleEngine): void {
  const schema = uniqueName(`route_${engine}`);
  const prefix = uniqueName(`route_${engine}`);
  let instances: Instance[] = [];
  let apis: Api[] = [];
  const clients: SseClient[] = [];

  beforeAll(async () => {
    buildForChildProcesses("packages/glove-server");
    instances = await Promise.all(
      [0, 1, 2].map(() => startInstance(schema, prefix, REDIS_URL, 3000, { GLOVE_SCALE_ENGINE: engine })),
    );
    apis = instances.map((i) => apiOf(i.url));
  }, SLOW_WORK_MS);
  afterAll(async () => {
    // What the instances logged (unexpected errors only), to explain a failure.
    for (const instance of instances) if (instance.stderr()) console.warn(instance.stderr().slice(-3000));
    await Promise.all(clients.map((c) => c.close()));
    killAll();
    if (process.env.GLOVE_KEEP_SCALE_STATE) return;
    await dropRedisPrefix(prefix);
    await dropSchema(schema);
  });

  function stream(instance: number, id: string, after?: number, user = "alice"): SseClient {
    const headers: Record<string, string> = { authorization: `Bearer ${user}` };
    if (after !== undefined) headers["last-event-id"] = String(after);
    const client = new SseClient(`${instances[instance]!.url}/conversations/${id}/events`, headers);
    clients.push(client);
    return client;
  }

  describe(`glove-server scale mode (${engine} engine): three processes on PostgreSQL + Redis`, () => {
    it("message through A, stream from B, slot answered through C (400, 200, then 409 through A), resumed on C", async () => {
      const [a, , c] = apis as [Api, Api, Api];
      const id = (await a("/conversations", {})).body.id as string;
      const b = stream(1, id);
      await b.waitForEvent("snapshot");
      const sent = await a(`/conversations/${id}/messages`, { text: "ask t1", clientMessageId: "m1" });
      expect(sent.status).toBe(202);
      const push = await b.waitForEvent("slot_push");
      const slot = (push.data as { slot: { id: string; toolName: string; status: string } }).slot;
      expect(slot).toMatchObject({ toolName: "ask_age", status: "pending" });
      const wrong = await c(`/conversations/${id}/slots/${slot.id}`, { resolve: { age: "forty" } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.issues[0].path).toBe("age");
      const right = await c(`/conversations/${id}/slots/${slot.id}`, { resolve: { age: 40 } });
      expect(right).toEqual({ status: 200, body: { slotId: slot.id, status: "resolved" } });
      const again = await a(`/conversations/${id}/slots/${slot.id}`, { resolve: { age: 41 } });
      expect(again.status).toBe(409);
      const end = await b.waitForEvent("turn_end");
      expect(end.data).toEqual({ turnId: sent.body.turnId, status: "done" });
      const ids = b.events.filter((e) => e.event !== "snapshot").map((e) => e.id!);
      expect(ids.every((v, i) => i === 0 || v === ids[i - 1]! + 1)).toBe(true);

      // The same position resumes on another instance: the same events, no gap, no duplicate.
      const middle = ids[Math.floor(ids.length / 2)]!;
      const resumed = stream(2, id, middle);
      await resumed.waitForEvent("turn_end");
      expect(resumed.events.map((e) => [e.id, e.event])).toEqual(
        b.events.filter((e) => e.id! > middle).map((e) => [e.id, e.event]),
      );

      const snapshot = (await c(`/conversations/${id}`)).body as {
        messages: Message[];
        busy: boolean;
        lastEventId: number;
        stats: unknown;
      };
      expect(snapshot.busy).toBe(false);
      // Read on C, the turn's stats are what B counted from its snapshot and the events after it.
      expect(snapshot.stats).toEqual(counted(b.events));
      expect(snapshot.stats).toMatchObject({ turns: 2 });
      expect(snapshot.lastEventId).toBe(b.lastId);
      expectValidHistory(snapshot.messages);
      expect(snapshot.messages.at(-1)?.text).toBe('age {"age":40} t1');
    });

    it("one turn per conversation across instances; the same clientMessageId on another instance answers the same turn; abort through another instance", async () => {
      const [a, b, c] = apis as [Api, Api, Api];
      const id = (await a("/conversations", {})).body.id as string;
      const tab = stream(2, id);
      await tab.waitForEvent("snapshot");
      const first = await a(`/conversations/${id}/messages`, { text: "steps:40 long", clientMessageId: "k1" });
      expect(first.status).toBe(202);
      const retry = await c(`/conversations/${id}/messages`, { text: "steps:40 long", clientMessageId: "k1" });
      expect(retry.body).toEqual({ turnId: first.body.turnId, duplicate: true });
      const busy = await b(`/conversations/${id}/messages`, { text: "other" });
      expect(busy.status).toBe(409);
      expect(busy.body.error.code).toBe("GLOVE_BUSY");
      await tab.waitForEvent("tool_use");
      const aborted = await b(`/conversations/${id}/abort`, {});
      expect(aborted.body).toMatchObject({ aborted: true, turnId: first.body.turnId });
      const end = await tab.waitForEvent("turn_end");
      expect(end.data).toMatchObject({ turnId: first.body.turnId, status: "aborted" });
      const history = (await c(`/conversations/${id}`)).body.messages as Message[];
      expectValidHistory(history);
      expect(history.filter((m) => m.sender === "user" && m.text).map((m) => m.text)).toEqual(["steps:40 long"]);
      // Free again, on any instance.
      expect((await c(`/conversations/${id}/messages`, { text: "hello" })).status).toBe(202);
      await tab.waitForEvent("turn_end", (d) => d.turnId !== first.body.turnId);
    });

    it("same auth on every instance: someone else's conversation is a 404, no principal a 401", async () => {
      const id = (await apis[0]!("/conversations", {})).body.id as string;
      for (const api of apis) {
        expect((await api(`/conversations/${id}`, undefined, "mallory")).status).toBe(404);
        expect((await api(`/conversations/${id}/messages`, { text: "hi" }, "mallory")).status).toBe(404);
      }
      const anonymous = await fetch(`${instances[1]!.url}/conversations/${id}`);
      expect(anonymous.status).toBe(401);
    });

    it(
      "200 concurrent conversations spread over the instances: every turn ends, no cross-talk",
      async () => {
        const n = 200;
        const users = Array.from({ length: n }, (_, i) => `user${i}`);
        const ids = await Promise.all(
          users.map(async (user, i) => (await apis[i % 3]!("/conversations", {}, user)).body.id as string),
        );
        const tabs = ids.map((id, i) => stream((i + 1) % 3, id, undefined, users[i]));
        await Promise.all(tabs.map((t) => t.waitForEvent("snapshot", undefined, PROMPT_WAIT_MS)));
        const tags = ids.map(() => crypto.randomUUID());
        const sent = await Promise.all(
          ids.map((id, i) =>
            apis[(i + 2) % 3]!(`/conversations/${id}/messages`, { text: `steps:2 ${tags[i]}` }, users[i]),
          ),
        );
        expect(sent.every((s) => s.status === 202)).toBe(true);
        await Promise.all(tabs.map((t) => t.waitForEvent("turn_end", undefined, PROMPT_WAIT_MS))).catch(
          (error: unknown) => {
            const stuck = ids.filter((_, i) => !tabs[i]!.events.some((e) => e.event === "turn_end"));
            throw new Error(
              `${String(error)}; conversations without turn_end (Redis prefix ${prefix}): ${stuck.join(" ")}`,
            );
          },
        );
        const others = new Set([...ids, ...tags]);
        for (const [i, tab] of tabs.entries()) {
          expect(tab.events.find((e) => e.event === "turn_end")?.data).toEqual({
            turnId: sent[i]!.body.turnId,
            status: "done",
          });
          const texts = tab.events
            .filter((e) => e.event === "text_delta")
            .map((e) => (e.data as { text: string }).text)
            .join("");
          expect(texts).toBe(`done ${tags[i]}`);
          // Another conversation's id or tag in this stream would be cross-talk.
          const seen =
            JSON.stringify(tab.events).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [];
          expect(seen.filter((u) => others.has(u) && u !== ids[i] && u !== tags[i])).toEqual([]);
        }
        const snapshots = await Promise.all(
          ids.map((id, i) => apis[i % 3]!(`/conversations/${id}`, undefined, users[i])),
        );
        for (const [i, snap] of snapshots.entries()) {
          expectValidHistory(snap.body.messages);
          expect((snap.body.messages as Message[]).map((m) => m.text).filter(Boolean)).toEqual([
            `steps:2 ${tags[i]}`,
            `done ${tags[i]}`,
          ]);
        }
      },
      SLOW_WORK_MS,
    );
  });
}
