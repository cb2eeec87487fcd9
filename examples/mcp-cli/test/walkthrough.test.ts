import { describe, expect, it } from "vitest";
import { runMcpCli } from "../src/agent.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

describe("offline walkthrough", () => {
  it(
    "discovers servers from the local catalogue and calls their bridged tools",
    async () => {
      const lines: string[] = [];
      const { activeEntries, messages } = await runMcpCli({ write: (line) => lines.push(line) });
      const results = messages.flatMap((m) => m.tool_results ?? []);
      expect(results.map((r) => [r.tool_name, r.result.status])).toEqual([
        ["glove_invoke_subagent", "success"],
        ["everything__echo", "success"],
        ["everything__get-sum", "success"],
        ["glove_invoke_subagent", "success"],
        ["memory__create_entities", "success"],
      ]);
      expect(activeEntries.sort()).toEqual(["everything", "memory"]);
      const output = lines.join("\n");
      expect(output).toMatch(/everything__echo \[success\].*hello from glove/);
      expect(output).toMatch(/everything__get-sum \[success\].*5/);
      expect(output).toMatch(/memory__create_entities \[success\].*Ada/);
    },
    SLOW_WORK_MS,
  );
});
