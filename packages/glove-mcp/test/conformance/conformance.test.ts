import { beforeAll, describe, expect, it } from "vitest";
import { bundleGloveClient, conformanceNode, listClientScenarios, pooled, runScenario, type ScenarioOutcome } from "./run-conformance.js";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

// The official MCP conformance suite (@modelcontextprotocol/conformance), client scenarios, run
// against glove-mcp (glove-client.mjs, bundled from the current sources) and against a reference client written
// directly on the SDK (sdk-client.mjs). Target: every scenario the SDK client passes, glove-mcp
// passes too, and no scenario hangs. All scenario servers listen on 127.0.0.1.

// A well-behaved client ends each scenario in a second or two; the bound only catches hangs, at any load.
const SCENARIO_TIMEOUT_MS = 120_000;
const CONCURRENCY = 3;

let scenarios: string[] = [];
let glove: ScenarioOutcome[] = [];
let sdk: ScenarioOutcome[] = [];

beforeAll(async () => {
  const gloveClient = await bundleGloveClient();
  scenarios = await listClientScenarios();
  const runs = await pooled(
    scenarios.flatMap((s) => [() => runScenario(gloveClient, s, SCENARIO_TIMEOUT_MS), () => runScenario("sdk-client.mjs", s, SCENARIO_TIMEOUT_MS)]),
    CONCURRENCY,
  );
  glove = runs.filter((_, i) => i % 2 === 0);
  sdk = runs.filter((_, i) => i % 2 === 1);
  const rows = scenarios.map((s, i) => `${s.padEnd(44)} glove-mcp ${glove[i]!.status.padEnd(4)}  sdk ${sdk[i]!.status.padEnd(4)}  ${glove[i]!.detail ?? ""}`);
  const count = (list: ScenarioOutcome[]) => list.filter((o) => o.status === "pass").length;
  console.log(`MCP conformance on Node ${conformanceNode === process.execPath ? process.version : conformanceNode}, client scenarios (glove-mcp ${count(glove)}/${scenarios.length}, SDK reference ${count(sdk)}/${scenarios.length}):\n${rows.join("\n")}`);
}, SLOW_WORK_MS);

describe("MCP conformance suite, client scenarios", () => {
  it("knows the suite's client scenarios", () => {
    expect(scenarios).toContain("initialize");
    expect(scenarios).toContain("elicitation-sep1034-client-defaults");
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
  });

  it("no scenario hangs glove-mcp", () => {
    expect(glove.filter((o) => o.status === "hang").map((o) => o.scenario)).toEqual([]);
  });

  it("glove-mcp passes every scenario the SDK reference client passes", () => {
    const behind = scenarios.filter((_, i) => sdk[i]!.status === "pass" && glove[i]!.status !== "pass");
    expect(behind.map((s) => `${s}: ${glove[scenarios.indexOf(s)]!.detail ?? glove[scenarios.indexOf(s)]!.status}`)).toEqual([]);
  });

  it("glove-mcp passes the core scenarios (initialize, tools, elicitation defaults, SSE retry)", () => {
    for (const name of ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"]) {
      expect(glove[scenarios.indexOf(name)]?.status, name).toBe("pass");
    }
  });
});
