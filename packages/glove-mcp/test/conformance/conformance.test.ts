import { beforeAll, describe, expect, it } from "vitest";
import {
  bundleGloveClient,
  CONFORMANCE_SUITES,
  conformanceNode,
  listClientScenarios,
  pooled,
  runScenario,
  suiteVersion,
  type ConformanceSuite,
  type ScenarioOutcome,
} from "./run-conformance.js";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

// The official MCP conformance suite (@modelcontextprotocol/conformance), client scenarios, run
// against glove-mcp (glove-client.mjs, bundled from the current sources) and against a reference
// client written directly on the SDK (sdk-client.mjs), on two versions of the suite: the release
// (every scenario must pass) and the newest pre-release (every scenario the SDK client passes,
// glove-mcp passes, plus the auth scenarios glove-mcp goes beyond it on). No scenario may hang.
// All scenario servers listen on 127.0.0.1.

// A well-behaved client ends each scenario in a second or two; the bound only catches hangs, at any load.
const SCENARIO_TIMEOUT_MS = 120_000;
const CONCURRENCY = 3;
// Each suite is 26 or 48 scenarios run twice (about 12 minutes for both on a loaded 2-core machine):
// twice the slow-work bound per suite, so load makes the run slow, never failed.
const SUITE_TIMEOUT_MS = 2 * SLOW_WORK_MS;

let gloveClient: Promise<string> | undefined;

interface SuiteRun {
  scenarios: string[];
  glove: ScenarioOutcome[];
  sdk: ScenarioOutcome[];
}

/** Runs every client scenario of `suite` with both clients and prints the table. */
async function runSuite(suite: ConformanceSuite): Promise<SuiteRun> {
  gloveClient ??= bundleGloveClient();
  const client = await gloveClient;
  const scenarios = await listClientScenarios(suite);
  const runs = await pooled(
    scenarios.flatMap((s) => [
      () => runScenario(suite, client, s, SCENARIO_TIMEOUT_MS),
      () => runScenario(suite, "sdk-client.mjs", s, SCENARIO_TIMEOUT_MS),
    ]),
    CONCURRENCY,
  );
  const glove = runs.filter((_, i) => i % 2 === 0);
  const sdk = runs.filter((_, i) => i % 2 === 1);
  const rows = scenarios.map(
    (s, i) =>
      `${s.padEnd(44)} glove-mcp ${glove[i]!.status.padEnd(4)}  sdk ${sdk[i]!.status.padEnd(4)}  ${glove[i]!.detail ?? glove[i]!.warnings.join(", ")}`,
  );
  const count = (list: ScenarioOutcome[]) => list.filter((o) => o.status === "pass").length;
  const node = conformanceNode === process.execPath ? process.version : conformanceNode;
  console.log(
    `MCP conformance ${suiteVersion(suite)} on Node ${node}, client scenarios (glove-mcp ${count(glove)}/${scenarios.length}, SDK reference ${count(sdk)}/${scenarios.length}):\n${rows.join("\n")}`,
  );
  return { scenarios, glove, sdk };
}

function outcome(run: SuiteRun, client: "glove" | "sdk", scenario: string): ScenarioOutcome | undefined {
  return run[client][run.scenarios.indexOf(scenario)];
}

/** The scenarios the SDK client passes and glove-mcp does not, with glove-mcp's reason. */
function behindSdk(run: SuiteRun): string[] {
  return run.scenarios
    .filter((_, i) => run.sdk[i]!.status === "pass" && run.glove[i]!.status !== "pass")
    .map((s) => `${s}: ${outcome(run, "glove", s)!.detail ?? outcome(run, "glove", s)!.status}`);
}

describe(`MCP conformance suite ${suiteVersion(CONFORMANCE_SUITES.release)} (release), client scenarios`, () => {
  let run: SuiteRun;
  beforeAll(async () => {
    run = await runSuite(CONFORMANCE_SUITES.release);
  }, SUITE_TIMEOUT_MS);

  it("knows the suite's 26 client scenarios", () => {
    expect(run.scenarios).toContain("initialize");
    expect(run.scenarios).toContain("auth/cross-app-access-complete-flow");
    expect(run.scenarios).toHaveLength(26);
  });

  it("glove-mcp passes all of them (26/26), none hangs", () => {
    expect(run.glove.filter((o) => o.status !== "pass").map((o) => `${o.scenario}: ${o.detail ?? o.status}`)).toEqual(
      [],
    );
  });

  it("glove-mcp passes every scenario the SDK reference client passes", () => {
    expect(behindSdk(run)).toEqual([]);
  });

  it("uses its client id metadata document where the server takes one (no cimd warning)", () => {
    expect(outcome(run, "glove", "auth/basic-cimd")!.warnings).not.toContain("cimd-client-id-used");
  });
});

describe(`MCP conformance suite ${suiteVersion(CONFORMANCE_SUITES.preRelease)} (pre-release), client scenarios`, () => {
  let run: SuiteRun;
  beforeAll(async () => {
    run = await runSuite(CONFORMANCE_SUITES.preRelease);
  }, SUITE_TIMEOUT_MS);

  it("knows the suite's client scenarios, and only those", () => {
    expect(run.scenarios).toContain("auth/wif-jwt-bearer");
    expect(run.scenarios).not.toContain("authorization-code-grant"); // an authorization-server scenario
    expect(run.scenarios.length).toBeGreaterThanOrEqual(40);
  });

  it("no scenario hangs glove-mcp", () => {
    expect(run.glove.filter((o) => o.status === "hang").map((o) => o.scenario)).toEqual([]);
  });

  it("glove-mcp passes every scenario the SDK reference client passes", () => {
    expect(behindSdk(run)).toEqual([]);
  });

  it("glove-mcp passes step-up (the challenged scope first), workload identity, enterprise-managed authorization and the metadata issuer check", () => {
    for (const name of [
      "auth/scope-step-up",
      "auth/wif-jwt-bearer",
      "auth/enterprise-managed-authorization",
      "auth/basic-cimd",
      "auth/metadata-issuer-mismatch",
    ]) {
      const result = outcome(run, "glove", name);
      expect(result?.status, `${name}: ${result?.detail ?? ""}`).toBe("pass");
    }
    expect(outcome(run, "glove", "auth/scope-step-up")!.warnings).not.toContain("scope-step-up-initial");
  });
});
