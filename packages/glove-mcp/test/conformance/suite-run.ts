import {
  bundleGloveClient,
  cliNode,
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
// must pass, release.test.ts) and the newest pre-release (every scenario the SDK client passes,
// glove-mcp passes, plus the auth scenarios glove-mcp goes beyond it on, pre-release.test.ts). No
// scenario may hang. All scenario servers listen on 127.0.0.1. One file per suite, so the two run
// side by side in a full run.

// A well-behaved client ends each scenario in a second or two; the bound only catches hangs, at any load.
const SCENARIO_TIMEOUT_MS = 120_000;
const CONCURRENCY = 3;
// Each suite is 26 or 48 scenarios run three times (about 9 minutes for the larger on a loaded
// 2-core machine): twice the slow-work bound per suite, so load makes the run slow, never failed.
export const SUITE_TIMEOUT_MS = 2 * SLOW_WORK_MS;

/** glove-mcp's two configurations, by the README's names for them. */
export const GLOVE_CONFIGURATIONS = ["authProvider", "getAccessToken"] as const;
export type GloveConfiguration = (typeof GLOVE_CONFIGURATIONS)[number];
type ClientName = GloveConfiguration | "sdk";

/** Every client scenario of one suite, as each client did on it. */
export interface SuiteRun {
  scenarios: string[];
  outcomes: Record<ClientName, ScenarioOutcome[]>;
}

/** Runs every client scenario of `suite` with each client and prints the table. */
export async function runSuite(suite: ConformanceSuite): Promise<SuiteRun> {
  const glove = await bundleGloveClient(suite.replace(/[^a-z0-9-]/gi, "-"));
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
  const version = (node: string) => (node === process.execPath ? process.version : node);
  console.log(
    `MCP conformance ${suiteVersion(suite)} (suite on Node ${version(cliNode())}, clients on Node ${version(conformanceNode)}), client scenarios (glove-mcp with ${totals}; sdk is the SDK reference client):\n${rows.join("\n")}`,
  );
  return { scenarios, outcomes };
}

/** How `client` did on `scenario`. */
export function outcome(run: SuiteRun, client: ClientName, scenario: string): ScenarioOutcome | undefined {
  return run.outcomes[client][run.scenarios.indexOf(scenario)];
}

/** The scenarios the SDK client passes and glove-mcp in `configuration` does not, with glove-mcp's reason. */
export function behindSdk(run: SuiteRun, configuration: GloveConfiguration): string[] {
  return run.scenarios
    .filter((_, i) => run.outcomes.sdk[i]!.status === "pass" && run.outcomes[configuration][i]!.status !== "pass")
    .map((s) => `${s}: ${outcome(run, configuration, s)!.detail ?? outcome(run, configuration, s)!.status}`);
}
