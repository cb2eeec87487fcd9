/* global AbortController, console, fetch, setTimeout */
// Queries per second one glove-server makes while N open streams sit idle (no turns): what watching
// inboxes for items resolved elsewhere costs. argv: <built checkout> [N=200] [single|scale|sqlite]
// (single and scale on PostgreSQL; sqlite: SQLite storage in a temporary file, its statements
// counted). Also prints the process's CPU per second. Run it against two checkouts (e.g. before and
// after a change) to compare; see README "Round 5" and "Round 6".
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
const [tree, N = "200", mode = "single"] = process.argv.slice(2);
const require = createRequire(`${tree}/packages/glove-server/package.json`);
const pg = require("pg");
const counts = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  const text = typeof config === "string" ? config : (config?.text ?? "?");
  const key = String(text).replace(/\s+/g, " ").slice(0, 60);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return query.call(this, config, ...rest);
};
const BetterSqlite3 = require("better-sqlite3");
const statementClass = new BetterSqlite3(":memory:").prepare("SELECT 1").constructor;
for (const method of ["all", "get", "run"]) {
  const original = statementClass.prototype[method];
  statementClass.prototype[method] = function (...args) {
    const key = this.source.replace(/\s+/g, " ").slice(0, 60);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return original.apply(this, args);
  };
}
const imp = (p) => import(pathToFileURL(`${tree}/packages/${p}`).href);
const { createGloveServer } = await imp("glove-server/dist/index.js");
const { postgresStorage } = await imp("glove-server/dist/storage/postgres/index.js");
const { sqliteStorage } = await imp("glove-server/dist/storage/sqlite-storage.js");
const sqliteDir = mode === "sqlite" ? mkdtempSync(join(tmpdir(), "glove-idle-")) : undefined;
const { redisScale } = await imp("glove-server/dist/scale/redis/index.js");
const { Glove, Displaymanager } = await imp("glove-core/dist/index.js");
const schema = `idle_${process.pid}`;
const model = {
  name: "m",
  setSystemPrompt() {},
  async prompt() {
    return { messages: [{ sender: "agent", text: "x" }], tokens_in: 1, tokens_out: 1 };
  },
};
const server = createGloveServer({
  authenticate: () => ({ id: "u" }),
  store: sqliteDir
    ? sqliteStorage({ path: join(sqliteDir, "glove.db") })
    : postgresStorage({ connectionString: "postgres://postgres@127.0.0.1:5432/test", schema }),
  ...(mode === "scale" ? { scale: redisScale({ redis: "redis://127.0.0.1:6379", prefix: `idle${process.pid}` }) } : {}),
  limits: { conversationsPerPrincipal: Infinity, conversationsPerMinute: Infinity },
  agents: {
    a: ({ store }) =>
      new Glove({
        store,
        model,
        displayManager: new Displaymanager(),
        systemPrompt: "s",
        compaction_config: { compaction_instructions: "s" },
      }),
  },
});
const { url } = await server.listen();
const streams = [];
for (let i = 0; i < Number(N); i++) {
  const id = (
    await (
      await fetch(`${url}/conversations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).json()
  ).id;
  const controller = new AbortController();
  const response = await fetch(`${url}/conversations/${id}/events`, { signal: controller.signal });
  const reader = response.body.getReader();
  await reader.read();
  void (async () => {
    try {
      for (;;) {
        const { done } = await reader.read();
        if (done) break;
      }
    } catch {
      /* aborted at the end */
    }
  })();
  streams.push(controller);
}
await new Promise((r) => setTimeout(r, 5000)); // first sights done
counts.clear();
const seconds = 10;
const cpu = process.cpuUsage();
await new Promise((r) => setTimeout(r, seconds * 1000));
const { user, system } = process.cpuUsage(cpu);
const total = [...counts.values()].reduce((a, b) => a + b, 0);
console.log(
  `${tree} ${mode} N=${N}: ${(total / seconds).toFixed(1)} queries/s, process CPU ${((user + system) / 1000 / seconds).toFixed(1)} ms/s (clients included)`,
  JSON.stringify(Object.fromEntries([...counts].map(([k, v]) => [k, v / seconds]))),
);
for (const c of streams) c.abort();
await server.close();
if (sqliteDir) {
  rmSync(sqliteDir, { recursive: true, force: true });
  process.exit(0);
}
const p = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
await p.query(`DROP SCHEMA ${schema} CASCADE`);
await p.end();
process.exit(0);
