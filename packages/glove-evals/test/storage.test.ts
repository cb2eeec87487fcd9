import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openInspector } from "glove-server";
import {
  contains,
  defineDataset,
  runExperiment,
  sqliteEvalStorage,
  toolTrajectory,
  type EvalStorage,
} from "../src/index.js";
import { postgresEvalStorage } from "../src/storage/postgres/index.js";
import { bistroAgent } from "./support/bistro.js";

const dataset = defineDataset("storage", [
  { id: "a", input: "Hello a", expected: { output: "a", toolCalls: [] } },
  { id: "b", input: "Hello b", expected: { output: "b", toolCalls: [] } },
  { id: "c", input: "Hello c", expected: { output: "c", toolCalls: [] } },
]);
const scorers = [contains(), toolTrajectory()];

/** The same checks on each storage: results in their own tables beside the conversations, and resume. */
function storageCases(name: string, open: () => Promise<EvalStorage>) {
  describe(name, () => {
    it("keeps experiments and results, and an interrupted experiment resumes without running finished items again", async () => {
      const storage = await open();
      try {
        const controller = new AbortController();
        const first = await runExperiment({
          dataset,
          agent: bistroAgent(),
          scorers,
          storage,
          concurrency: 1,
          signal: controller.signal,
          onResult: () => controller.abort(),
        });
        expect(first.experiment.status).toBe("interrupted");
        expect(first.results.map((r) => r.itemId)).toEqual(["a"]);
        const stored = await storage.results.getExperiment(first.experiment.id);
        expect(stored).toMatchObject({
          status: "interrupted",
          datasetVersion: dataset.version,
          datasetName: "storage",
        });

        const progress: number[] = [];
        const resumed = await runExperiment({
          dataset,
          agent: bistroAgent(),
          scorers,
          storage,
          resume: first.experiment.id,
          onProgress: (p) => progress.push(p.skipped),
        });
        expect(resumed.experiment).toMatchObject({ id: first.experiment.id, status: "completed" });
        expect(resumed.results.map((r) => r.itemId)).toEqual(["a", "b", "c"]);
        expect(resumed.results[0]!.conversationId).toBe(first.results[0]!.conversationId);
        expect(progress).toEqual([1, 1]);
        expect(resumed.experiment.summary).toMatchObject({ items: 3, runs: 3, failedRuns: 0 });
        expect(resumed.experiment.summary!.scores["contains"]!.mean).toBe(1);

        // The runs are conversations of the same storage, with traces Studio opens.
        const listed = await storage.server.inspect!.listConversations({ limit: 10, owner: "glove-evals" });
        expect(listed.items.map((c) => c.id).sort()).toEqual(resumed.results.map((r) => r.conversationId).sort());
        const listedExperiments = await storage.results.listExperiments({ datasetName: "storage" });
        expect(listedExperiments.map((e) => e.id)).toEqual([first.experiment.id]);
        // A result saved again replaces the earlier one.
        await storage.results.saveResult({ ...resumed.results[0]!, output: "replaced" });
        const again = await storage.results.results(first.experiment.id);
        expect(again).toHaveLength(3);
        expect(again[0]!.output).toBe("replaced");
        expect(again[1]).toEqual(resumed.results[1]);
      } finally {
        await storage.close();
      }
    });

    it("refuses to resume on another dataset version", async () => {
      const storage = await open();
      try {
        const { experiment } = await runExperiment({ dataset, agent: bistroAgent(), scorers, storage });
        const changed = defineDataset("storage", [{ id: "a", input: "Something else" }]);
        await expect(
          runExperiment({ dataset: changed, agent: bistroAgent(), scorers, storage, resume: experiment.id }),
        ).rejects.toThrow(/Start a new experiment/);
      } finally {
        await storage.close();
      }
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "glove-evals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
storageCases("SQLite (one file with the conversations)", async () =>
  sqliteEvalStorage({ path: join(dir, `e${files++}.db`) }),
);

const schema = `evals_${process.pid}_${Date.now().toString(36)}`;
const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test", max: 8 });
afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});
storageCases("PostgreSQL (one schema with the conversations)", () => postgresEvalStorage({ pool, schema }));

describe("Studio's reads", () => {
  it("a read-only inspector of the file sees the runs beside the results tables", async () => {
    const path = join(dir, "studio.db");
    const storage = sqliteEvalStorage({ path });
    const { results } = await runExperiment({ dataset, agent: bistroAgent(), scorers, storage });
    await storage.close();
    const inspector = await openInspector({ sqlite: path });
    try {
      const page = await inspector.messages(results[0]!.conversationId, { offset: 0, limit: 10 });
      expect(page.messages.map((m) => m.text)).toEqual(["Hello a", "You said: Hello a"]);
    } finally {
      await inspector.close();
    }
  });
});
