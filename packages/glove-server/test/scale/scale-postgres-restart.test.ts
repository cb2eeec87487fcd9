import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { buildForChildProcesses } from "../../../../test-support/child-processes.js";
import { expectValidHistory } from "../suite/server-suite.js";
import { canRunOwnPostgres, OwnPostgres } from "./support/own-postgres.js";
import { ResilientStream } from "./support/resilient-stream.js";
import { apiOf, killAll, startInstance, type Instance } from "./support/scale-processes.js";
import { dropRedisPrefix, REDIS_URL, uniqueName } from "./support/scale-env.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const enabled = canRunOwnPostgres();
const schema = uniqueName("pgrestart");
const prefix = uniqueName("pgrestart");
let postgres: OwnPostgres | undefined;
let instances: Instance[] = [];

beforeAll(async () => {
  if (!enabled) return;
  buildForChildProcesses("packages/glove-server");
  postgres = await OwnPostgres.start();
  instances = await Promise.all(
    [0, 1].map(() => startInstance(schema, prefix, REDIS_URL, 3000, { GLOVE_PG_URL: postgres!.url })),
  );
}, SLOW_WORK_MS);
afterAll(async () => {
  for (const instance of instances) if (instance.stderr()) console.warn(instance.stderr().slice(-2000));
  killAll();
  postgres?.destroy();
  await dropRedisPrefix(prefix);
});

describe.runIf(enabled)("glove-server scale mode: PostgreSQL restarting mid-turn", () => {
  it(
    "instances survive and reconnect: the turn ends (done, or error if a write hit the outage), history stays valid, the next turn works",
    async () => {
      const [a, b] = instances.map((i) => apiOf(i.url)) as [ReturnType<typeof apiOf>, ReturnType<typeof apiOf>];
      const id = (await a("/conversations", {})).body.id as string;
      const stream = new ResilientStream(() => instances[1]!.url, `/conversations/${id}/events`);
      await stream.waitFor((events) => events.length > 0, PROMPT_WAIT_MS);
      const sent = await a(`/conversations/${id}/messages`, { text: "steps:10 p1" });
      expect(sent.status).toBe(202);
      await stream.waitFor((events) => events.filter((e) => e.event === "tool_use").length >= 3, PROMPT_WAIT_MS);
      postgres!.stop();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      postgres!.start();

      await stream.waitFor((events) => events.some((e) => e.event === "turn_end"), PROMPT_WAIT_MS);
      const end = stream.events.find((e) => e.event === "turn_end")!.data as { turnId: string; status: string };
      expect(end.turnId).toBe(sent.body.turnId);
      expect(["done", "error"]).toContain(end.status);
      for (const instance of instances) expect(instance.child.exitCode).toBeNull(); // nobody crashed
      const events = stream.events;
      for (let i = 1; i < events.length; i++) expect(events[i]!.id).toBe(events[i - 1]!.id! + 1);

      const next = await b(`/conversations/${id}/messages`, { text: "hello after the restart" });
      expect(next.status).toBe(202);
      await stream.waitFor(
        (all) => all.some((e) => e.event === "turn_end" && (e.data as { turnId: string }).turnId === next.body.turnId),
        PROMPT_WAIT_MS,
      );
      expect(
        stream.events.find((e) => e.event === "turn_end" && (e.data as { turnId: string }).turnId === next.body.turnId)
          ?.data,
      ).toMatchObject({ status: "done" });
      const history = (await a(`/conversations/${id}`)).body.messages as Message[];
      expectValidHistory(history);
      expect(history.at(-1)?.text).toBe("echo: hello after the restart");
      await stream.close();
    },
    SLOW_WORK_MS,
  );
});
