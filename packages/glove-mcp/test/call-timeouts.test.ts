import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager } from "glove-core";
import {
  bridgeMcpTools,
  connectMcp,
  type McpCatalogueEntry,
  type McpConnection,
  type McpProgressEvent,
} from "glove-mcp";
import { startEverything, type RunningServer } from "./support/servers.js";

let server: RunningServer;
const open: McpConnection[] = [];

beforeAll(async () => {
  server = await startEverything("streamableHttp");
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await server?.stop();
});

async function longRunning(limits: Pick<McpCatalogueEntry, "timeoutMs" | "maxTotalTimeoutMs">) {
  const connection = await connectMcp({
    id: "everything",
    name: "Everything",
    description: "test",
    url: server.url,
    ...limits,
  });
  open.push(connection);
  const progress: McpProgressEvent[] = [];
  const fold = bridgeMcpTools(connection, true, { onProgress: (e) => progress.push(e) }).find(
    (f) => f.name === "everything__trigger-long-running-operation",
  )!;
  const call = (duration: number, steps: number) =>
    fold.do({ duration, steps }, new Displaymanager(), undefined as never);
  return { call, progress };
}

describe("long tool calls", () => {
  it("sends a progress token and restarts the per-call timeout on each progress notification", async () => {
    // 1.6 s in 8 steps against a 600 ms timeout: only the resets let it finish.
    const { call, progress } = await longRunning({ timeoutMs: 600 });
    const result = await call(1.6, 8);
    expect(result).toMatchObject({ status: "success" });
    expect(String((result as { data: unknown }).data)).toMatch(/completed/);
    expect(progress.length).toBeGreaterThanOrEqual(7);
    expect(progress[0]).toMatchObject({
      entryId: "everything",
      tool: "everything__trigger-long-running-operation",
      progress: 1,
      total: 8,
    });
  });

  it("times out a call that reports no progress within timeoutMs", async () => {
    // One step: the only progress arrives at the end, after the 600 ms timeout.
    const { call } = await longRunning({ timeoutMs: 600 });
    const started = Date.now();
    const result = await call(1.5, 1);
    // The "timed out" result is the proof (the operation would have succeeded); the bound only rules out the 60 s default.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result).toMatchObject({ status: "error", message: expect.stringMatching(/timed out/) });
  });

  it("stops at maxTotalTimeoutMs however much progress arrives", async () => {
    const { call, progress } = await longRunning({ timeoutMs: 600, maxTotalTimeoutMs: 900 });
    const started = Date.now();
    const result = await call(2, 10);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(progress.length).toBeGreaterThan(0);
    expect(result).toMatchObject({ status: "error", message: expect.stringMatching(/timed out/) });
  });
});
