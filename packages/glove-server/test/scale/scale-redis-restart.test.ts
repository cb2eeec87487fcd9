import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { buildForChildProcesses } from "../../../../test-support/child-processes.js";
import { expectValidHistory } from "../suite/server-suite.js";
import { OwnRedis } from "./support/own-redis.js";
import { ResilientStream } from "./support/resilient-stream.js";
import { apiOf, killAll, startInstance, type Instance } from "./support/scale-processes.js";
import { dropSchema, uniqueName } from "./support/scale-env.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const schema = uniqueName("rrestart");
const prefix = uniqueName("rrestart");
let redis: OwnRedis;
let instances: Instance[] = [];

beforeAll(async () => {
  buildForChildProcesses("packages/glove-server");
  redis = await OwnRedis.start();
  instances = await Promise.all([0, 1].map(() => startInstance(schema, prefix, redis.url, 3000)));
}, SLOW_WORK_MS);
afterAll(async () => {
  // What the instances logged (unexpected errors only), to explain a failure.
  for (const instance of instances) if (instance.stderr()) console.warn(instance.stderr().slice(-3000));
  killAll();
  await redis?.stop();
  await dropSchema(schema);
});

describe("glove-server scale mode: Redis restarting mid-turn", () => {
  it(
    "the turn continues, streams on both instances resume where they were, nothing is duplicated",
    async () => {
      const [a, b] = instances.map((i) => apiOf(i.url)) as [ReturnType<typeof apiOf>, ReturnType<typeof apiOf>];
      const id = (await a("/conversations", {})).body.id as string;
      const onA = new ResilientStream(() => instances[0]!.url, `/conversations/${id}/events`);
      const onB = new ResilientStream(() => instances[1]!.url, `/conversations/${id}/events`);
      await onA.waitFor((events) => events.length > 0, PROMPT_WAIT_MS);
      await onB.waitFor((events) => events.length > 0, PROMPT_WAIT_MS);
      const sent = await b(`/conversations/${id}/messages`, { text: "steps:10 r1" });
      expect(sent.status).toBe(202);
      await onA.waitFor((events) => events.filter((e) => e.event === "tool_use").length >= 3, PROMPT_WAIT_MS);

      const ended = (events: Array<{ event: string }>) => events.some((e) => e.event === "turn_end");
      expect(ended(onA.events)).toBe(false); // the restart happens mid-turn
      await redis.kill();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await redis.start();

      await onA.waitFor(ended, PROMPT_WAIT_MS);
      await onB.waitFor(ended, PROMPT_WAIT_MS);
      for (const stream of [onA, onB]) {
        const events = stream.events;
        for (let i = 1; i < events.length; i++) expect(events[i]!.id).toBe(events[i - 1]!.id! + 1);
        expect(events.find((e) => e.event === "turn_end")?.data).toEqual({ turnId: sent.body.turnId, status: "done" });
      }
      // Both instances delivered the same events.
      expect(onB.events.map((e) => [e.id, e.event])).toEqual(onA.events.map((e) => [e.id, e.event]));
      const history = (await a(`/conversations/${id}`)).body.messages as Message[];
      expectValidHistory(history);
      expect(history.filter((m) => m.sender === "agent" && !m.tool_calls?.length).map((m) => m.text)).toEqual([
        "done r1",
      ]);

      // And the next turn works as before.
      const next = await a(`/conversations/${id}/messages`, { text: "hello again" });
      expect(next.status).toBe(202);
      await onB.waitFor(
        (events) =>
          events.some((e) => e.event === "turn_end" && (e.data as { turnId: string }).turnId === next.body.turnId),
        PROMPT_WAIT_MS,
      );
      await onA.close();
      await onB.close();
    },
    SLOW_WORK_MS,
  );
});
