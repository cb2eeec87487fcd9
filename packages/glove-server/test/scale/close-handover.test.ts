/**
 * A graceful stop (SIGTERM → server.close()) of the instance running a turn, as a rolling deploy
 * does: the turn is handed to another instance and ends there with its one answer, instead of
 * ending as interrupted. The fixture picks the engine from GLOVE_SCALE_ENGINE (owner-close-handover).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { buildForChildProcesses } from "../../../../test-support/child-processes.js";
import { SseClient } from "../support/sse-client.js";
import { expectValidHistory } from "../suite/server-suite.js";
import { apiOf, killAll, startInstance, type Instance } from "./support/scale-processes.js";
import { dropRedisPrefix, dropSchema, REDIS_URL, uniqueName } from "./support/scale-env.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const schema = uniqueName("handover");
const prefix = uniqueName("handover");
let instances: Instance[] = [];
let tab: SseClient | undefined;

beforeAll(async () => {
  buildForChildProcesses("packages/glove-server");
  instances = await Promise.all([0, 1].map(() => startInstance(schema, prefix, REDIS_URL, 1000)));
}, SLOW_WORK_MS);
afterAll(async () => {
  for (const instance of instances) if (instance.stderr()) console.warn(instance.stderr().slice(-3000));
  await tab?.close();
  killAll();
  await dropRedisPrefix(prefix);
  await dropSchema(schema);
});

describe("glove-server scale mode: the instance running a turn stops gracefully", () => {
  it(
    "hands the turn over: it ends done on the other instance with one answer, clients see turn_resumed",
    async () => {
      const [a, b] = instances as [Instance, Instance];
      const apiA = apiOf(a.url);
      const id = (await apiA("/conversations", {})).body.id as string;
      const sent = await apiA(`/conversations/${id}/messages`, { text: "steps:8 h1" });
      expect(sent.status).toBe(202);
      tab = new SseClient(`${b.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
      await tab.waitForEvent("tool_use", undefined, PROMPT_WAIT_MS);
      a.child.kill("SIGTERM");
      expect(await a.exited).toBe(null); // exited by itself (code 0), not by the signal
      const end = await tab.waitForEvent("turn_end", undefined, PROMPT_WAIT_MS);
      expect(end.data).toEqual({ turnId: sent.body.turnId, status: "done" });
      // The owner engine always continues it elsewhere (turn_resumed); the BullMQ engine's closing
      // worker sometimes finishes the turn itself before its job is handed over (same outcome).
      if (process.env.GLOVE_SCALE_ENGINE === "owner")
        expect(tab.events.some((e) => e.event === "turn_resumed")).toBe(true);
      const history = (await apiOf(b.url)(`/conversations/${id}`)).body.messages as Message[];
      expectValidHistory(history);
      expect(history.filter((m) => m.sender === "user" && !m.tool_results?.length).map((m) => m.text)).toEqual([
        "steps:8 h1",
      ]);
      expect(history.filter((m) => m.sender === "agent" && !m.tool_calls?.length).map((m) => m.text)).toEqual([
        "done h1",
      ]);
    },
    SLOW_WORK_MS,
  );
});
