/* global performance */
// One glove-server for the scale benchmark, in its own process: prints its URL, serves until SIGTERM.
// argv: <mode: single|scale|owner> <postgres schema> <redis prefix>
// The model answers every message with CHUNKS text chunks, one every CHUNK_MS (fixed latency);
// each chunk carries the wall-clock time it was emitted, so clients measure model-output → SSE latency.
import process from "node:process";
import { setTimeout as sleep } from "node:timers/promises";
import { Displaymanager, Glove } from "glove-core";
import { pathToFileURL, URL } from "node:url";

// BENCH_GLOVE_SERVER: another build of glove-server (a copy of its package.json and dist/, e.g. of
// an earlier commit) to compare in the same run; it resolves glove-core etc. from where it lies.
const from = (path, name) =>
  process.env.BENCH_GLOVE_SERVER
    ? import(pathToFileURL(`${process.env.BENCH_GLOVE_SERVER}/dist/${path}`).href)
    : import(name);
const { createGloveServer } = await from("index.js", "glove-server");
const { postgresStorage } = await from("storage/postgres/index.js", "glove-server/postgres");
const { redisScale } = await from("scale/redis/index.js", "glove-server/redis");
// mode "owner": the scale mode as one engine (not exported yet: loaded from the build).
const ownerScale = async () =>
  (
    await (process.env.BENCH_GLOVE_SERVER
      ? import(pathToFileURL(`${process.env.BENCH_GLOVE_SERVER}/dist/scale/owner/owner-scale.js`).href)
      : import(new URL("../../packages/glove-server/dist/scale/owner/owner-scale.js", import.meta.url).href))
  ).ownerScale;

const [mode, schema, prefix] = process.argv.slice(2);
const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.GLOVE_REDIS_URL ?? "redis://127.0.0.1:6379";
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10);
const CHUNK_MS = Number(process.env.BENCH_CHUNK_MS ?? 20);
/** BENCH_CHUNK_JITTER_MS: each gap between chunks is CHUNK_MS plus a random 0…this many ms (0: conversations stay in step). */
const JITTER_MS = Number(process.env.BENCH_CHUNK_JITTER_MS ?? 0);
const now = () => performance.timeOrigin + performance.now();

/** A model with a fixed latency per chunk; the text carries emit times. */
const model = {
  name: "bench-fixed-latency",
  setSystemPrompt() {},
  async prompt(_request, notify, signal) {
    let text = "";
    for (let i = 0; i < CHUNKS; i++) {
      await sleep(CHUNK_MS + (JITTER_MS > 0 ? Math.random() * JITTER_MS : 0), undefined, { signal });
      const chunk = `@${now().toFixed(3)} `;
      text += chunk;
      await notify("text_delta", { text: chunk });
    }
    await notify("model_response_complete", { text });
    return { messages: [{ sender: "agent", text }], tokens_in: 10, tokens_out: CHUNKS };
  },
};

const server = createGloveServer({
  authenticate: (request) => {
    const header = request.headers.get("authorization");
    return header?.startsWith("Bearer ") ? { id: header.slice(7) } : null;
  },
  store: postgresStorage({ connectionString: PG_URL, schema }),
  ...(mode === "scale" ? { scale: redisScale({ redis: REDIS_URL, prefix, concurrency: 1000 }) } : {}),
  ...(mode === "owner" ? { scale: (await ownerScale())({ redis: REDIS_URL, prefix }) } : {}),
  events: { heartbeatMs: 600_000 },
  // The bench's one user drives every conversation: no per-principal quotas.
  limits: {
    conversationsPerPrincipal: Infinity,
    conversationsPerMinute: Infinity,
    concurrentTurnsPerPrincipal: Infinity,
    turnsPerMinute: Infinity,
  },
  maxLiveConversations: 100_000,
  agents: {
    assistant: ({ store }) =>
      new Glove({
        store,
        model,
        displayManager: new Displaymanager(),
        systemPrompt: "bench",
        compaction_config: { compaction_instructions: "Summarize." },
      }),
  },
});
const { url } = await server.listen();
// BENCH_PROFILE: SIGUSR2 starts the CPU profiler, the next SIGUSR2 writes the timed part's profile.
if (process.env.BENCH_PROFILE) {
  const { Session } = await import("node:inspector/promises");
  const { writeFileSync } = await import("node:fs");
  const session = new Session();
  session.connect();
  let profiling = false;
  process.on("SIGUSR2", async () => {
    if (!profiling) {
      profiling = true;
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
      return;
    }
    profiling = false;
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(
      `${process.env.BENCH_PROFILE}/${mode}-${process.pid}-${Date.now()}.cpuprofile`,
      JSON.stringify(profile),
    );
    process.stdout.write("PROFILED\n");
  });
}
process.stdout.write(`URL ${url}\n`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
