import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Executor, MemoryStore, type Tool } from "glove-core";
import { RecordingSubscriber } from "glove-core/testing";
import { deferred, makeGlove } from "../support/make-glove.js";

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

describe("concurrent tool calls (decision 2)", () => {
  it("runs calls of one turn concurrently, persists in call order, emits in completion order", async () => {
    const slowStarted = deferred();
    const releaseSlow = deferred();
    let fastRanWhileSlowPending = false;
    const { glove, store, events } = makeGlove([
      {
        toolCalls: [
          { name: "slow", input: {}, id: "a" },
          { name: "fast", input: {}, id: "b" },
        ],
      },
      { text: "done" },
    ]);
    glove
      .fold({
        name: "slow",
        description: "slow",
        async do() {
          slowStarted.resolve();
          await releaseSlow.promise;
          return "slow-result";
        },
      })
      .fold({
        name: "fast",
        description: "fast",
        async do() {
          await slowStarted.promise;
          fastRanWhileSlowPending = true;
          releaseSlow.resolve();
          return "fast-result";
        },
      });
    await glove.processRequest("go");
    // Sequential execution would deadlock: fast waits for slow to start, slow waits for fast.
    expect(fastRanWhileSlowPending).toBe(true);
    const results = (await store.getMessages()).find((m) => m.tool_results)!.tool_results!;
    expect(results.map((r) => r.call_id)).toEqual(["a", "b"]);
    expect(events.ofType("tool_use_result").map((e) => e.call_id)).toEqual(["b", "a"]);
  });

  it("toolConcurrency: 1 runs them one after another", async () => {
    const order: string[] = [];
    const { glove } = makeGlove(
      [
        {
          toolCalls: [
            { name: "t", input: { n: 1 } },
            { name: "t", input: { n: 2 } },
          ],
        },
        { text: "ok" },
      ],
      { toolConcurrency: 1 },
    );
    glove.fold({
      name: "t",
      description: "t",
      inputSchema: z.object({ n: z.number() }),
      async do({ n }) {
        order.push(`start${n}`);
        await sleep(5);
        order.push(`end${n}`);
        return n;
      },
    });
    await glove.processRequest("go");
    expect(order).toEqual(["start1", "end1", "start2", "end2"]);
  });
});

describe("retries (decision 5)", () => {
  it("a throwing tool runs once by default and yields an error result", async () => {
    let runs = 0;
    const { glove, store } = makeGlove([{ toolCalls: [{ name: "boom", input: {} }] }, { text: "sorry" }]);
    glove.fold({
      name: "boom",
      description: "fails",
      async do() {
        runs++;
        throw new Error("disk full");
      },
    });
    await glove.processRequest("go");
    expect(runs).toBe(1);
    const result = (await store.getMessages()).find((m) => m.tool_results)!.tool_results![0]!.result;
    expect(result.status).toBe("error");
    expect(result.message).toContain("disk full");
  });

  it("with maxRetries it retries with growing backoff, then succeeds", async () => {
    const times: number[] = [];
    const executor = new Executor(3, new MemoryStore("x"), { retryBaseDelayMs: 20 });
    executor.registerTool({
      name: "flaky",
      description: "flaky",
      async run() {
        times.push(performance.now());
        if (times.length < 3) throw new Error("try again");
        return { status: "success", data: "finally" };
      },
    });
    executor.addToolCallToStack({ tool_name: "flaky", input_args: {}, id: "1" });
    const [result] = await executor.executeToolStack();
    expect(result!.result).toEqual({ status: "success", data: "finally" });
    expect(times).toHaveLength(3);
    const gap1 = times[1]! - times[0]!;
    const gap2 = times[2]! - times[1]!;
    expect(gap1).toBeGreaterThanOrEqual(18);
    expect(gap2).toBeGreaterThanOrEqual(38);
  });

  it("reports every attempt when retries run out", async () => {
    const executor = new Executor(2, undefined, { retryBaseDelayMs: 1 });
    let runs = 0;
    executor.registerTool({
      name: "always",
      description: "always fails",
      async run() {
        runs++;
        throw new Error("nope");
      },
    });
    executor.addToolCallToStack({ tool_name: "always", input_args: {} });
    const [r] = await executor.executeToolStack();
    expect(runs).toBe(3);
    expect(r!.result.message).toMatch(/after 3 attempts: nope/);
  });

  it("never retries after abort", async () => {
    const controller = new AbortController();
    let runs = 0;
    const executor = new Executor(5, undefined, { retryBaseDelayMs: 1 });
    executor.registerTool({
      name: "t",
      description: "t",
      unAbortable: true,
      async run() {
        runs++;
        controller.abort();
        throw new Error("failed during abort");
      },
    });
    executor.addToolCallToStack({ tool_name: "t", input_args: {} });
    const [r] = await executor.executeToolStack(undefined, controller.signal);
    expect(runs).toBe(1);
    expect(r!.result.status).toBe("error");
  });

  it("never retries input-validation failures", async () => {
    let runs = 0;
    const executor = new Executor(3, undefined, { retryBaseDelayMs: 1 });
    const tool: Tool<{ n: number }> = {
      name: "v",
      description: "v",
      input_schema: z.object({ n: z.number() }),
      async run() {
        runs++;
        return "x";
      },
    };
    executor.registerTool(tool as Tool<unknown>);
    executor.addToolCallToStack({ tool_name: "v", input_args: { n: "one" } });
    const [r] = await executor.executeToolStack();
    expect(runs).toBe(0);
    expect(r!.result.status).toBe("error");
  });
});

describe("standalone Executor", () => {
  it("exposes tools, clears the stack, and emits tool_use_result to its subscribers", async () => {
    const executor = new Executor();
    const events = new RecordingSubscriber();
    executor.addSubscriber(events);
    executor.registerTool({ name: "echo", description: "echo", run: async (i) => i as object });
    expect(executor.tools.map((t) => t.name)).toEqual(["echo"]);
    expect(executor.MAX_RETRIES).toBe(0);
    executor.addToolCallToStack({ tool_name: "echo", input_args: { a: 1 }, id: "c1" });
    const results = await executor.executeToolStack();
    expect(results).toEqual([{ tool_name: "echo", call_id: "c1", result: { status: "success", data: { a: 1 } } }]);
    expect(await executor.executeToolStack()).toEqual([]);
    expect(events.ofType("tool_use_result")).toHaveLength(1);
  });

  it("refuses a taken tool name unless replace is set (decision 10)", () => {
    const executor = new Executor();
    const tool = { name: "dup", description: "d", run: async () => 1 };
    executor.registerTool(tool);
    expect(() => executor.registerTool(tool)).toThrow(/already registered.*replace: true/);
    expect(() => executor.registerTool(tool, { replace: true })).not.toThrow();
  });
});
