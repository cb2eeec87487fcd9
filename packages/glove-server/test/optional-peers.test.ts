import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GloveError } from "glove-core";
import { MissingDependencyError } from "glove-server";
import { importOptional } from "../src/optional/optional-import.js";

/** What Node throws for `import("bullmq")` when the package is not installed. */
function notFound(name: string): Error {
  return Object.assign(
    new Error(`Cannot find package '${name}' imported from /app/node_modules/glove-server/dist/scale/redis/drivers.js`),
    { code: "ERR_MODULE_NOT_FOUND" },
  );
}

const FEATURE = "glove-server/redis (the scale mode)";

describe("optional peers (bullmq, ioredis, pg, better-sqlite3)", () => {
  it("are optional peers of glove-server, not dependencies: a SQLite-only install pulls none of them", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const name of ["bullmq", "ioredis", "pg", "glove-postgres", "better-sqlite3"]) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.peerDependencies[name], name).toBeDefined();
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
    }
  });

  it("a missing one fails with a MissingDependencyError naming it and the install command", async () => {
    const loading = importOptional(
      FEATURE,
      ["bullmq", "ioredis"],
      [() => Promise.reject(notFound("bullmq")), () => Promise.resolve({})],
    );
    const error = await loading.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(MissingDependencyError.isInstance(error)).toBe(true);
    expect(GloveError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: "MissingDependencyError",
      code: "GLOVE_MISSING_DEPENDENCY",
      packageName: "bullmq",
      feature: FEATURE,
      installCommand: "npm install bullmq ioredis",
    });
    expect((error as Error).message).toBe(
      'glove-server/redis (the scale mode) needs the "bullmq" package, which is not installed: glove-server lists it as an optional peer, ' +
        "so apps that do not use this feature go without it. Install it in your app: npm install bullmq ioredis",
    );
    expect((error as Error).cause).toMatchObject({ code: "ERR_MODULE_NOT_FOUND" });
  });

  it("names the package a dependency was missing (pg, missing under glove-postgres)", async () => {
    const error = await importOptional(
      "glove-server/postgres (postgresStorage)",
      ["pg", "glove-postgres"],
      [() => Promise.reject(notFound("pg"))],
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ packageName: "pg", installCommand: "npm install pg glove-postgres" });
  });

  it("rethrows anything else as it is: another missing package, or an error while loading", async () => {
    const other = notFound("left-pad");
    await expect(importOptional(FEATURE, ["bullmq"], [() => Promise.reject(other)])).rejects.toBe(other);
    const broken = new SyntaxError("Unexpected token");
    await expect(importOptional(FEATURE, ["bullmq"], [() => Promise.reject(broken)])).rejects.toBe(broken);
  });

  it("loads what is installed, in order", async () => {
    const [a, b] = await importOptional(FEATURE, ["x", "y"], [() => Promise.resolve(1), () => Promise.resolve("two")]);
    expect([a, b]).toEqual([1, "two"]);
  });
});
