import { describe, expect, it } from "vitest";
import { SLOW_WORK_MS } from "../test-support/timeouts.js";
import { nodeBinary, nodeVersion, runningNodeLine, SUPPORTED_NODE_LINES } from "../test-support/node-lines.js";

// Tests that must hold on every supported Node.js line get their binaries here; this proves the
// lines can be had from the npm registry alone (the only registry CI reaches).
describe("nodeBinary", () => {
  it.each(SUPPORTED_NODE_LINES)(
    "gives a working node of line %i",
    (line) => {
      const binary = nodeBinary(line);
      expect(nodeVersion(binary)).toMatch(new RegExp(`^v${line}\\.`));
      if (line === runningNodeLine) expect(binary).toBe(process.execPath);
    },
    SLOW_WORK_MS,
  );
});
