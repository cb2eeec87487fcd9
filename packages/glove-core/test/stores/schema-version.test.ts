import { describe, expect, it } from "vitest";
import { StoreSessionError, schemaVersionPolicy } from "../../src/index.js";

const migrations = [
  { version: 1, description: "tables", statements: ["CREATE TABLE a (x)"] },
  { version: 2, description: "index", statements: ["CREATE INDEX a_x ON a (x)"] },
];
const policy = schemaVersionPolicy({
  migrations,
  packageName: "glove-demo",
  where: "demo.db",
  error: (detail, code) => new StoreSessionError("DemoStore", "chat-1", detail, code),
});

describe("schemaVersionPolicy", () => {
  it("reads one non-negative integer version, refusing anything else", () => {
    expect(policy.recorded([{ version: 1 }])).toBe(1);
    for (const rows of [
      [],
      [{ version: 1 }, { version: 1 }],
      [{ version: "1" }],
      [{ version: -1 }],
      [{ version: 1.5 }],
    ]) {
      expect(() => policy.recorded(rows)).toThrow(
        /^DemoStore session "chat-1": the schema version table of demo\.db is unreadable/,
      );
    }
    const error = (() => {
      try {
        policy.recorded([]);
      } catch (e) {
        return e as StoreSessionError;
      }
    })();
    expect(error?.code).toBe("GLOVE_STORE_SCHEMA");
  });

  it("refuses Glove tables without a version table", () => {
    expect(() => policy.refuseUnversioned([])).not.toThrow();
    expect(() => policy.refuseUnversioned(["glove_a", "glove_b"])).toThrow(
      /demo\.db has Glove tables \(glove_a, glove_b\) but no glove_schema_version table, so its schema version is unknown\. Give the store a database \(or schema\) of its own, or move these tables out of the way\. Nothing was changed\.$/,
    );
  });

  it("runs only the steps past the recorded version and refuses a newer one", () => {
    expect(policy.pending(0).map((m) => m.version)).toEqual([1, 2]);
    expect(policy.pending(1).map((m) => m.version)).toEqual([2]);
    expect(policy.pending(2)).toEqual([]);
    expect(() => policy.pending(3)).toThrow(
      /demo\.db has schema version 3, newer than this glove-demo supports \(2\)\. It was written by a newer glove-demo: upgrade this one\. Nothing was changed\./,
    );
  });
});
