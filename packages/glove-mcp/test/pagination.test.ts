import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Displaymanager } from "glove-core";
import { bridgeMcpTools, connectMcp } from "glove-mcp";
import { minimalEnv } from "./support/servers.js";

const here = path.dirname(fileURLToPath(import.meta.url));

describe("tool list pagination", () => {
  it("reads every page and makes names provider-safe without collisions", async () => {
    const connection = await connectMcp({
      id: "paged",
      name: "Paged",
      description: "three pages of tools",
      url: "stdio://paged",
      stdio: {
        command: process.execPath,
        args: [path.join(here, "support", "paged-server.mjs")],
        env: minimalEnv(),
        cwd: here,
      },
    });
    try {
      expect(connection.tools.map((t) => t.name)).toEqual([...[0, 1, 2, 3, 4, 5, 6].map((i) => `tool.${i}`), "tool_6"]);
      const folds = bridgeMcpTools(connection, true);
      expect(folds.map((f) => f.name).slice(6)).toEqual(["paged__tool_6", "paged__tool_6_2"]);
      const display = new Displaymanager();
      expect(await folds[6]!.do({}, display, undefined as never)).toMatchObject({
        status: "success",
        data: "called tool.6",
      });
      expect(await folds[7]!.do({}, display, undefined as never)).toMatchObject({
        status: "success",
        data: "called tool_6",
      });
    } finally {
      await connection.close();
    }
  });
});
