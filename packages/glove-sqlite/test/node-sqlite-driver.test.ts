/**
 * The SQLite tests again on node:sqlite: this machine's Node 20 has no node:sqlite, so a child
 * vitest runs them under Node 22 with GLOVE_TEST_SQLITE_DRIVER=node:sqlite — glove-sqlite's
 * conformance suite and driver contract, glove-server's SQLite storage tests and Glove Studio's
 * SQLite reading. On Node 22+ the normal suite already runs them on node:sqlite (auto), and this
 * file forces it all the same.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { nodeBinary } from "../../../test-support/node-lines.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const FILES = [
  "packages/glove-sqlite/test/conformance.test.ts",
  "packages/glove-sqlite/test/driver.test.ts",
  "packages/glove-server/test/sqlite-storage-writes.test.ts",
  "packages/glove-server/test/sqlite-catalog-updates.test.ts",
  "packages/glove-server/test/suite.sqlite.test.ts",
  "packages/glove-server/test/inspect/inspector.sqlite.test.ts",
  "packages/glove-server/test/inspect/open-inspector.test.ts",
  "packages/glove-studio/test/api.test.ts",
  "packages/glove-studio/test/cli.test.ts",
];

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{ name: string; status: string; assertionResults: Array<{ title: string; status: string }> }>;
}

it(
  "the SQLite tests of glove-sqlite, glove-server and Glove Studio pass on node:sqlite under Node 22",
  async () => {
    const node = nodeBinary(22);
    const dir = mkdtempSync(join(tmpdir(), "glove-node-sqlite-"));
    const report = join(dir, "report.json");
    // The enclosing npm test's variables (workspace, prefix) are not the child's business.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|VITEST)/i.test(key)));
    try {
      await promisify(execFile)(
        node,
        [
          join(ROOT, "node_modules", "vitest", "vitest.mjs"),
          "run",
          ...FILES,
          "--reporter=json",
          `--outputFile=${report}`,
        ],
        { cwd: ROOT, env: { ...env, GLOVE_TEST_SQLITE_DRIVER: "node:sqlite" }, maxBuffer: 64 * 1024 * 1024 },
      ).catch((error: { stdout?: string; stderr?: string }) => {
        // A failed test exits non-zero: the report below names it; without a report, say why.
        if (!existsSync(report)) throw new Error(`vitest under Node 22 wrote no report:\n${error.stderr ?? ""}`);
      });
      const result = JSON.parse(readFileSync(report, "utf8")) as Report;
      const failed = result.testResults.flatMap((file) =>
        file.assertionResults.filter((test) => test.status === "failed").map((test) => `${file.name}: ${test.title}`),
      );
      expect(failed).toEqual([]);
      expect(result.numFailedTests).toBe(0);
      expect(result.numPendingTests).toBe(0);
      expect(result.numPassedTests).toBeGreaterThan(100);
      expect(result.testResults.map((file) => file.name.slice(ROOT.length).replace(/^\//, "")).sort()).toEqual(
        [...FILES].sort(),
      );
      // The conformance file checks the stores it opened really ran on node:sqlite.
      const conformance = result.testResults.find((file) =>
        file.name.endsWith("glove-sqlite/test/conformance.test.ts"),
      );
      expect(
        conformance?.assertionResults.find((test) => test.title.startsWith("runs on the driver asked for"))?.status,
      ).toBe("passed");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  SLOW_WORK_MS,
);
