/** The evals' AgentOverride is glove-server's, the one Glove Studio's forks use too (not a copy). */
import { describe, expect, it } from "vitest";
import { applyOverride as serverOverride } from "glove-server";
import { applyOverride } from "glove-evals";

describe("AgentOverride", () => {
  it("is glove-server's applyOverride, re-exported", () => {
    expect(applyOverride).toBe(serverOverride);
  });
});
