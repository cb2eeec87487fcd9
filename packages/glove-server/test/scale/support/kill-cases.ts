import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScaleEngine } from "./routing-cases.js";
import type { SseEvent } from "../../support/sse-client.js";
import type { Message } from "glove-core";
import { buildForChildProcesses } from "../../../../../test-support/child-processes.js";
import { expectValidHistory } from "../../suite/server-suite.js";
import { ResilientStream } from "./resilient-stream.js";
import { apiOf, killAll, startInstance, type Instance } from "./scale-processes.js";
import { dropRedisPrefix, dropSchema, REDIS_URL, uniqueName } from "./scale-env.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../../test-support/timeouts.js";

/**
 * SIGKILL chaos: three instances, kills at random moments, streams resumed on random instances.
 * Every turn ends done with one answer per message, ids only grow, histories stay valid.
 */
export function describeKills(engine: ScaleEngine): void {
  const schema = uniqueName(`kill_${engine}`);
  const prefix = uniqueName(`kill_${engine}`);
  const KILLS = 20;
  const CONVERSATIONS = 9;
  let instances: Instance[] = [];

  beforeAll(async () => {
    buildForChildProcesses("packages/glove-server");
    instances = await Promise.all(
      [0, 1, 2].map(() => startInstance(schema, prefix, REDIS_URL, 1000, { GLOVE_SCALE_ENGINE: engine })),
    );
  }, SLOW_WORK_MS);
  afterAll(async () => {
    // What the instances logged (unexpected errors only), to explain a failure.
    for (const instance of instances) if (instance.stderr()) console.warn(instance.stderr().slice(-3000));
    killAll();
    if (process.env.GLOVE_KEEP_SCALE_STATE) return;
    await dropRedisPrefix(prefix);
    await dropSchema(schema);
  });

  const alive = () => instances[Math.floor(Math.random() * instances.length)]!.url;

  /** POSTs to any live instance until one answers (a retried message keeps its clientMessageId). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
  async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await apiOf(alive())(path, body);
        if (answer.status < 500) return answer;
      } catch (error) {
        if (attempt > 50) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The turn ended as its stream shows: a turn_end, or (owner engine) a later snapshot with its answer and no turn of it running. */
  function ended(events: SseEvent[], turnId: string, text: string): boolean {
    if (events.some((e) => e.event === "turn_end" && (e.data as { turnId: string }).turnId === turnId)) return true;
    if (engine === "bullmq") return false;
    return events.some((e) => {
      if (e.event !== "snapshot") return false;
      const data = e.data as { turnId: string | null; messages: Message[] };
      const asked = data.messages.findIndex((m) => m.sender === "user" && m.text === text);
      return (
        data.turnId !== turnId &&
        asked >= 0 &&
        data.messages.slice(asked + 1).some((m) => m.sender === "agent" && !m.tool_calls?.length)
      );
    });
  }

  describe(`glove-server scale mode (${engine} engine): instances killed mid-turn`, () => {
    it(
      `${KILLS} SIGKILLs at random moments: every turn finishes, streams continue, histories stay valid with one answer per message`,
      async () => {
        const ids: string[] = [];
        for (let i = 0; i < CONVERSATIONS; i++) ids.push((await post("/conversations", {})).body.id as string);
        const streams = ids.map((id) => new ResilientStream(alive, `/conversations/${id}/events`));
        await Promise.all(streams.map((s) => s.waitFor((events) => events.length > 0, PROMPT_WAIT_MS)));

        let stop = false;
        const sentTurns = ids.map(() => [] as Array<{ turnId: string; text: string }>);
        const drivers = ids.map(async (id, c) => {
          for (let n = 0; !stop; n++) {
            // Every third turn uses the tool that may be re-run after a takeover.
            const text = n % 3 === 2 ? `lookup c${c}-t${n}` : `steps:4 c${c}-t${n}`;
            const sent = await post(`/conversations/${id}/messages`, { text, clientMessageId: `c${c}-t${n}` });
            expect(sent.status).toBe(202);
            sentTurns[c]!.push({ turnId: sent.body.turnId, text });
            await streams[c]!.waitFor((events) => ended(events, sent.body.turnId, text), PROMPT_WAIT_MS).catch(
              (error: unknown) => {
                throw new Error(
                  `${String(error)} (conversation ${id}, turn ${sent.body.turnId}${sent.body.duplicate ? ", answered as a duplicate" : ""}, Redis prefix ${prefix})`,
                );
              },
            );
          }
        });

        let kills = 0;
        const killer = (async () => {
          while (kills < KILLS) {
            await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 900));
            const index = Math.floor(Math.random() * instances.length);
            const victim = instances[index]!;
            victim.child.kill("SIGKILL");
            expect(await victim.exited).toBe("SIGKILL");
            kills++;
            instances[index] = await startInstance(schema, prefix, REDIS_URL, 1000, { GLOVE_SCALE_ENGINE: engine });
          }
        })();
        await killer;
        stop = true;
        await Promise.all(drivers);
        expect(kills).toBe(KILLS);

        let interrupted = 0;
        let rerun = 0;
        let resumed = 0;
        let jumps = 0;
        for (const [c, id] of ids.entries()) {
          const events = streams[c]!.events;
          // Ids only grow across reconnects to other instances: no duplicate, and no gap unless a snapshot says so.
          const numbered = events.filter((e) => e.event !== "snapshot");
          for (let i = 1; i < numbered.length; i++) expect(numbered[i]!.id).toBeGreaterThan(numbered[i - 1]!.id!);
          for (let i = 1; i < events.length; i++) {
            if (events[i]!.event === "snapshot" || events[i]!.id === events[i - 1]!.id! + 1) continue;
            // The owner engine: a new owner continues the stream above a dead owner's ids (at most one jump per kill).
            expect(engine).toBe("owner");
            jumps++;
          }
          const ends = events
            .filter((e) => e.event === "turn_end")
            .map((e) => e.data as { turnId: string; status: string });
          if (engine === "bullmq") expect(ends.map((e) => e.turnId)).toEqual(sentTurns[c]!.map((t) => t.turnId));
          else {
            // The owner engine: events a dead owner never replicated are gone, and a reader asking for
            // them starts over from a snapshot (ids jump past the dead owner's range): a turn that
            // ended meanwhile shows in it instead of in a turn_end.
            expect(sentTurns[c]!.every((t) => ended(events, t.turnId, t.text))).toBe(true);
            const order = sentTurns[c]!.map((t) => t.turnId);
            expect(ends.map((e) => e.turnId)).toEqual(order.filter((turnId) => ends.some((e) => e.turnId === turnId)));
          }
          expect(ends.every((e) => e.status === "done")).toBe(true);
          resumed += events.filter((e) => e.event === "turn_resumed").length;

          const history = (await apiOf(alive())(`/conversations/${id}`)).body.messages as Message[];
          expectValidHistory(history);
          const users = history.filter((m) => m.sender === "user" && !m.tool_results?.length).map((m) => m.text);
          expect(users).toEqual(sentTurns[c]!.map((t) => t.text));
          // Exactly one answer per message: no model answer twice.
          const answers = history.filter((m) => m.sender === "agent" && !m.tool_calls?.length).map((m) => m.text);
          expect(answers).toEqual(
            sentTurns[c]!.map((t) =>
              t.text.startsWith("lookup") ? `done ${t.text.slice(7)} success` : `done ${t.text.slice(8)}`,
            ),
          );
          for (const result of history.flatMap((m) => m.tool_results ?? [])) {
            if (result.result.status === "aborted") interrupted++;
            if (result.tool_name === "lookup" && result.result.status === "success") rerun++;
          }
          // Nothing interrupted by a takeover is from the tool that may be re-run.
          expect(
            history
              .flatMap((m) => m.tool_results ?? [])
              .filter((r) => r.tool_name === "lookup" && r.result.status !== "success"),
          ).toEqual([]);
        }
        await Promise.all(streams.map((s) => s.close()));
        console.info(
          `[scale-kill ${engine}] ${KILLS} kills, ${sentTurns.flat().length} turns, ${resumed} takeovers seen by clients, ${interrupted} interrupted step calls, ${rerun} lookups`,
        );
        // Turns were taken over and went on: clients saw turn_resumed.
        expect(resumed).toBeGreaterThan(0);
        expect(jumps).toBeLessThanOrEqual(KILLS * CONVERSATIONS);
      },
      SLOW_WORK_MS,
    );
  });
}
