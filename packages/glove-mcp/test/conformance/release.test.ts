import { beforeAll, describe, expect, it } from "vitest";
import { CONFORMANCE_SUITES, suiteVersion } from "./run-conformance.js";
import { behindSdk, GLOVE_CONFIGURATIONS, outcome, runSuite, SUITE_TIMEOUT_MS, type SuiteRun } from "./suite-run.js";

// The release of the official MCP conformance suite: glove-mcp passes every client scenario (see suite-run.ts).

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
