import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { GloveError } from "glove-core";
import { SCHEMA_VERSION, SqliteStore } from "../src/index.js";
import { MIGRATIONS } from "../src/migrations.js";
import { checkWaitsAgainstModel } from "../../glove-core/test/stores/waits-property.js";

const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-waits-"));
const opened: Array<{ close(): void }> = [];
afterAll(() => {
  for (const x of opened) x.close();
  rmSync(dir, { recursive: true, force: true });
});
const question = {
  id: "q1",
  kind: "question",
  toolCallId: "c1",
  toolName: "ask",
  position: 0,
  renderer: "confirm",
  input: { a: "\u0000" },
  status: "pending",
  created_at: "2026-01-01T00:00:00.000Z",
  settled_at: null,
} as const;

describe("SqliteStore durable questions", () => {
  it("a database written by schema version 1 gets glove_waits on open, keeping its messages", async () => {
    const dbPath = join(dir, "v1.db");
    const db = new BetterSqlite3(dbPath);
    db.prepare("CREATE TABLE glove_schema_version (version INTEGER NOT NULL)").run();
    db.prepare("INSERT INTO glove_schema_version (version) VALUES (1)").run();
    for (const statement of MIGRATIONS[0]!.statements) db.prepare(statement).run();
    db.prepare("INSERT INTO glove_sessions (session_id, message_count, created_at) VALUES ('old', 1, 'x')").run();
    db.prepare("INSERT INTO glove_messages (session_id, seq, body, created_at) VALUES ('old', 0, ?, 'x')").run(
      JSON.stringify({ sender: "user", text: "kept" }),
    );
    db.close();

    const store = new SqliteStore({ dbPath, sessionId: "old" });
    opened.push(store);
    expect(store.db.prepare("SELECT version FROM glove_schema_version").get()).toEqual({ version: SCHEMA_VERSION });
    expect(await store.getMessages()).toEqual([{ sender: "user", text: "kept" }]);
    await store.addWait(question);
    expect(await store.getWaits()).toEqual([question]);
  });

  it("reports a corrupt wait row (GLOVE_STORE_CORRUPT) naming the wait, and leaves it in place", async () => {
    const store = new SqliteStore({ dbPath: join(dir, "corrupt.db"), sessionId: "s" });
    opened.push(store);
    await store.addWait(question);
    store.db.prepare("UPDATE glove_waits SET input_json = '{not json' WHERE id = 'q1'").run();
    const error = await store.getWaits().catch((e: unknown) => e);
    expect(GloveError.isInstance(error) && error.code).toBe("GLOVE_STORE_CORRUPT");
    expect((error as Error).message).toMatch(
      /^SqliteStore session "s": wait "q1" in SQLite database .*corrupt\.db is corrupt \(input_json is not valid JSON/,
    );
    expect(store.db.prepare("SELECT input_json FROM glove_waits").get()).toEqual({ input_json: "{not json" });
  });
});

describe("SqliteStore durable questions agree with the model (fast-check)", () => {
  it("random addWait, settleWait (also two connections at once) and getWaits, valid and not", async () => {
    const dbPath = join(dir, "property.db");
    // Each open is its own connection, as another process's would be.
    await checkWaitsAgainstModel(
      async (sessionId) => {
        const store = new SqliteStore({ dbPath, sessionId });
        opened.push(store);
        return store;
      },
      Number(process.env.GLOVE_FUZZ_RUNS ?? 100),
    );
  }, 120_000);
});
