import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { SqliteStore } from "../src/index.js";
import { checkParityWithMemoryStore } from "../../glove-core/test/stores/store-parity.js";

const dir = mkdtempSync(join(tmpdir(), "glove-sqlite-parity-"));
const open: SqliteStore[] = [];
afterAll(() => {
  for (const store of open) store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SqliteStore agrees with MemoryStore (fast-check)", () => {
  it("random operations with valid and invalid arguments: same outcome, same state after each", async () => {
    const db = new SqliteStore({ dbPath: join(dir, "parity.db"), sessionId: "root" });
    open.push(db);
    await checkParityWithMemoryStore(
      async (sessionId) => new SqliteStore({ database: db.db, sessionId }),
      Number(process.env.GLOVE_FUZZ_RUNS ?? 200),
    );
  }, 120_000);
});
