import { beforeAll, describe, expect, it } from "vitest";
import { CONFORMANCE_SUITES, suiteVersion } from "./run-conformance.js";
import { behindSdk, GLOVE_CONFIGURATIONS, outcome, runSuite, SUITE_TIMEOUT_MS, type SuiteRun } from "./suite-run.js";

// The newest pre-release of the official MCP conformance suite: glove-mcp passes every client
// scenario the SDK reference client passes, and the auth scenarios it goes beyond it on (see suite-run.ts).

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
