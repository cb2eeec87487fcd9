import { beforeAll, describe, expect, it } from "vitest";
import {
  bundleGloveClient,
  CONFORMANCE_SUITES,
  conformanceNode,
  listClientScenarios,
  pooled,
  runScenario,
  suiteVersion,
  type ConformanceClient,
  type ConformanceSuite,
  type ScenarioOutcome,
} from "./run-conformance.js";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

// The official MCP conformance suite (@modelcontextprotocol/conformance), client scenarios, run
// against glove-mcp (glove-client.mjs, bundled from the current sources) in both configurations the
// README documents (an McpOAuthProvider as `authProvider`; `getAccessToken` on the store
// runMcpOAuth fills, with runMcpOAuth again on a refusal) and against a reference client written
// directly on the SDK (sdk-client.mjs), on two versions of the suite: the release (every scenario
// must pass) and the newest pre-release (every scenario the SDK client passes, glove-mcp passes,
// plus the auth scenarios glove-mcp goes beyond it on). No scenario may hang. All scenario servers
// listen on 127.0.0.1.

// A well-behaved client ends each scenario in a second or two; the bound only catches hangs, at any load.
const SCENARIO_TIMEOUT_MS = 120_000;
const CONCURRENCY = 3;
// Each suite is 26 or 48 scenarios run three times (about 9 minutes for the larger on a loaded
// 2-core machine): twice the slow-work bound per suite, so load makes the run slow, never failed.
const SUITE_TIMEOUT_MS = 2 * SLOW_WORK_MS;

/** glove-mcp's two configurations, by the README's names for them. */
const GLOVE_CONFIGURATIONS = ["authProvider", "getAccessToken"] as const;
type GloveConfiguration = (typeof GLOVE_CONFIGURATIONS)[number];
type ClientName = GloveConfiguration | "sdk";

let gloveClient: Promise<string> | undefined;

interface SuiteRun {
  scenarios: string[];
  outcomes: Record<ClientName, ScenarioOutcome[]>;
}

/** Runs every client scenario of `suite` with each client and prints the table. */
async function runSuite(suite: ConformanceSuite): Promise<SuiteRun> {
  gloveClient ??= bundleGloveClient();
  const glove = await gloveClient;
  const clients: Record<ClientName, ConformanceClient> = {
    authProvider: { path: glove },
    getAccessToken: { path: glove, args: ["--access-token"] },
    sdk: { path: "sdk-client.mjs" },
  };
  const names = Object.keys(clients) as ClientName[];
  const scenarios = await listClientScenarios(suite);
  const runs = await pooled(
    scenarios.flatMap((s) => names.map((name) => () => runScenario(suite, clients[name], s, SCENARIO_TIMEOUT_MS))),
    CONCURRENCY,
  );
  const outcomes = Object.fromEntries(
    names.map((name, n) => [name, runs.filter((_, i) => i % names.length === n)]),
  ) as Record<ClientName, ScenarioOutcome[]>;
  const rows = scenarios.map((s, i) => {
    const cells = names.map((name) => `${name} ${outcomes[name][i]!.status.padEnd(4)}`).join("  ");
    const first = GLOVE_CONFIGURATIONS.map((c) => outcomes[c][i]!).find((o) => o.status !== "pass");
    const shown = first ?? outcomes.authProvider[i]!;
    return `${s.padEnd(44)} ${cells}  ${shown.detail ?? shown.warnings.join(", ")}`;
  });
  const count = (list: ScenarioOutcome[]) => list.filter((o) => o.status === "pass").length;
  const totals = names.map((name) => `${name} ${count(outcomes[name])}/${scenarios.length}`).join(", ");
  const node = conformanceNode === process.execPath ? process.version : conformanceNode;
  console.log(
    `MCP conformance ${suiteVersion(suite)} on Node ${node}, client scenarios (glove-mcp with ${totals}; sdk is the SDK reference client):\n${rows.join("\n")}`,
  );
  return { scenarios, outcomes };
}

function outcome(run: SuiteRun, client: ClientName, scenario: string): ScenarioOutcome | undefined {
  return run.outcomes[client][run.scenarios.indexOf(scenario)];
}

/** The scenarios the SDK client passes and glove-mcp in `configuration` does not, with glove-mcp's reason. */
function behindSdk(run: SuiteRun, configuration: GloveConfiguration): string[] {
  return run.scenarios
    .filter((_, i) => run.outcomes.sdk[i]!.status === "pass" && run.outcomes[configuration][i]!.status !== "pass")
    .map((s) => `${s}: ${outcome(run, configuration, s)!.detail ?? outcome(run, configuration, s)!.status}`);
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

  it.each(GLOVE_CONFIGURATIONS)("glove-mcp with %s passes all of them (26/26), none hangs", (configuration) => {
    const failed = run.outcomes[configuration].filter((o) => o.status !== "pass");
    expect(failed.map((o) => `${o.scenario}: ${o.detail ?? o.status}`)).toEqual([]);
  });

  it.each(GLOVE_CONFIGURATIONS)("glove-mcp with %s passes every scenario the SDK reference client passes", (c) => {
    expect(behindSdk(run, c)).toEqual([]);
  });

  it.each(GLOVE_CONFIGURATIONS)("glove-mcp with %s uses its client id metadata document (no cimd warning)", (c) => {
    expect(outcome(run, c, "auth/basic-cimd")!.warnings).not.toContain("cimd-client-id-used");
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

  it.each(GLOVE_CONFIGURATIONS)("no scenario hangs glove-mcp with %s", (configuration) => {
    expect(run.outcomes[configuration].filter((o) => o.status === "hang").map((o) => o.scenario)).toEqual([]);
  });

  it.each(GLOVE_CONFIGURATIONS)("glove-mcp with %s passes every scenario the SDK reference client passes", (c) => {
    expect(behindSdk(run, c)).toEqual([]);
  });

  it.each(GLOVE_CONFIGURATIONS)(
    "glove-mcp with %s passes step-up (the challenged scope first, the held ones kept), workload identity, enterprise-managed authorization and the metadata issuer check",
    (configuration) => {
      for (const name of [
        "auth/scope-step-up",
        "auth/wif-jwt-bearer",
        "auth/enterprise-managed-authorization",
        "auth/basic-cimd",
        "auth/metadata-issuer-mismatch",
      ]) {
        const result = outcome(run, configuration, name);
        expect(result?.status, `${name}: ${result?.detail ?? ""}`).toBe("pass");
      }
      const stepUp = outcome(run, configuration, "auth/scope-step-up")!.warnings;
      expect(stepUp).not.toContain("scope-step-up-initial");
      expect(stepUp).not.toContain("sep-2350-scope-union-on-reauth");
    },
  );
});
