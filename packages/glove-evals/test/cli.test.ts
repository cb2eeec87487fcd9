import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cli, loadDataset, sqliteEvalStorage, type CliIo } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "glove-evals-cli-"));
process.env.GLOVE_EVALS_TEST_DIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function run(argv: string[], signal?: AbortSignal) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    ...(signal ? { signal } : {}),
  };
  const code = await cli(argv, io);
  return { code, stdout, stderr };
}

describe("glove-evals CLI", () => {
  it("run: writes the baseline, then fails a regressing variant with JSON and JUnit reports; compare names it", async () => {
    const first = await run(["run", fixture("careful.config.ts"), "--update-baseline"]);
    expect(first.stdout).toContain("gate passed");
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/\[2\/2\] 0 failed · contains 1\.00/);
    expect(JSON.parse(readFileSync(join(dir, "baseline.json"), "utf8"))).toMatchObject({
      variant: "careful",
      scores: { tool_trajectory: 1 },
    });
    const careful = first.stdout.match(/experiment (\S+)/)![1]!;

    const json = join(dir, "report.json");
    const junit = join(dir, "report.xml");
    const second = await run(["run", fixture("careless.config.ts"), "--json", json, "--junit", junit]);
    expect(second.code).toBe(1);
    expect(second.stdout).toContain("FAIL tool_trajectory fell from 1.000 to 0.500");
    expect(second.stdout).toContain("FAIL asked_for_missing:reservation_form fell from 1.000 to 0.500");
    const report = JSON.parse(readFileSync(json, "utf8")) as { gate: { passed: boolean }; results: unknown[] };
    expect(report.gate.passed).toBe(false);
    expect(report.results).toHaveLength(2);
    expect(readFileSync(junit, "utf8")).toContain('<testcase classname="bookings" name="book#0"');
    const careless = second.stdout.match(/experiment (\S+)/)![1]!;

    const compared = await run(["compare", careful, careless, "--sqlite", join(dir, "evals.db")]);
    // Two items are too few for the interval to exclude 0: the drop is listed, not called a regression.
    expect(compared.code).toBe(0);
    expect(compared.stdout).toMatch(/same\s+tool_trajectory: 1\.000 → 0\.500/);
    expect(compared.stdout.split("\n")[0]).toContain("(careful) → ");
    expect(compared.stdout).toMatch(/- book: .*tool_trajectory 1\.00→0\.00/);
  });

  it("run: an interrupted run exits 130 keeping what finished; --resume completes it", async () => {
    const controller = new AbortController();
    let stderr = "";
    const code = await cli(["run", fixture("careful.config.ts")], {
      stdout: (t) => void (stderr += t),
      stderr: (t) => {
        stderr += t;
        controller.abort();
      },
      signal: controller.signal,
    });
    expect(code).toBe(130);
    const id = stderr.match(/--resume (\S+)/)![1]!;
    const resumed = await run(["run", fixture("careful.config.ts"), "--resume", id]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("(+1 already done)");
  });

  it("add-item: a stored run becomes a dataset item only through a redaction choice", async () => {
    const storage = sqliteEvalStorage({ path: join(dir, "evals.db") });
    const [latest] = await storage.results.listExperiments({ limit: 1 });
    const conversation = (await storage.results.results(latest!.id)).find((r) => r.itemId === "book")!.conversationId;
    await storage.close();
    const dataset = join(dir, "new.jsonl");
    const refused = await run([
      "add-item",
      "--from-conversation",
      conversation,
      "--dataset",
      dataset,
      "--sqlite",
      join(dir, "evals.db"),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--redact <module>.*--keep-personal-data/);
    const redactor = join(dir, "redact.mjs");
    writeFileSync(redactor, 'export default (item) => JSON.parse(JSON.stringify(item).replaceAll("Ada", "<name>"));\n');
    const added = await run([
      "add-item",
      "--from-conversation",
      conversation,
      "--dataset",
      dataset,
      "--sqlite",
      join(dir, "evals.db"),
      "--redact",
      redactor,
      "--id",
      "from-prod",
    ]);
    expect(added.stdout).toContain("added item from-prod");
    const [item] = (await loadDataset(dataset)).items;
    expect(item).toMatchObject({
      id: "from-prod",
      input: "Book a table please",
      expected: { output: "Your table is booked: GB-1." },
    });
    expect(item!.expected!.toolCalls).toEqual([
      { name: "reservation_form", args: { question: "Your booking details?" } },
      { name: "book_table", args: { name: "<name>", guests: 2, time: "19:30" } },
    ]);
    expect(existsSync(dataset)).toBe(true);
  });

  it("usage and config errors exit with a message, never a stack", async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(["run"])).stderr).toMatch(/run needs a config file/);
    const missing = await run(["run", join(dir, "nope.mjs")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot load the config/);
  });
});
