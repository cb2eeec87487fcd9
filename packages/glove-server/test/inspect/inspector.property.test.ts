import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { memoryStorage, sqliteStorage } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { checkListingProperty } from "./inspector-property.js";
import { postgresSchemas } from "./pg-schemas.js";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const { pool, schema } = postgresSchemas("glove_inspect_prop");

describe("the conversation listing matches a plain in-memory filter, page after page", () => {
  it("in memory", () => checkListingProperty(async () => memoryStorage(), 60), SLOW_WORK_MS);
  it(
    "on SQLite",
    () =>
      checkListingProperty(
        async () => sqliteStorage({ path: join(mkdtempSync(join(tmpdir(), "glove-inspect-prop-")), "glove.db") }),
        40,
      ),
    SLOW_WORK_MS,
  );
  it(
    "on PostgreSQL",
    () => checkListingProperty(async () => postgresStorage({ pool, schema: schema() }), 20),
    SLOW_WORK_MS,
  );
});
