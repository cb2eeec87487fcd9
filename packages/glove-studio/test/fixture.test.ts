/**
 * "Copy as test": the generated ScriptedModel fixture of a stored conversation runs in vitest and
 * passes — it reproduces the conversation — and fails when the recording no longer matches.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { sqliteStorage } from "glove-server";
import { fixtureParts, fixtureSource, startStudio, type RunningStudio } from "glove-studio";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startApp, type SeededApp } from "./support/seeded-app.js";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
let dir: string;
let app: SeededApp;
let studio: RunningStudio;
let runDir: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "glove-studio-fixture-"));
  app = await startApp(sqliteStorage({ path: join(dir, "glove.db") }));
  ids.weather = await app.converse("alice", "assistant", ["weather Lisbon", "hi there", "weather Oslo"]);
  ids.asked = await app.converse("alice", "assistant", ["ask Your name?"]);
  const [question] = (await app.api(`/conversations/${ids.asked}`)).body.slots as Array<{ id: string }>;
  await app.api(`/conversations/${ids.asked}/slots/${question!.id}`, { body: { resolve: { name: "Ada" } } });
  await app.waitIdle(ids.asked, "alice");
  studio = await startStudio({ storage: app.storage, port: 0 });
  // Inside the repo, so the fixture imports glove-core like a user's test does.
  runDir = join(REPO, "packages", "glove-studio", "test", `.fixture-run-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  writeFileSync(
    join(runDir, "vitest.config.mjs"),
    `import base from "../../../../vitest.config.ts";\nexport default { ...base, test: { ...base.test, include: [${JSON.stringify(`${runDir}/*.fixture.ts`)}] } };\n`,
  );
});
afterAll(async () => {
  await studio?.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
  if (runDir) rmSync(runDir, { recursive: true, force: true });
});

/** Runs one generated file with vitest in a child process; its exit code and output. */
function runFixture(name: string, source: string): { code: number | null; out: string } {
  const file = join(runDir, `${name}.fixture.ts`);
  writeFileSync(file, source);
  const child = spawnSync("npx", ["vitest", "run", "--config", join(runDir, "vitest.config.mjs"), file], {
    cwd: REPO,
    encoding: "utf8",
    timeout: SLOW_WORK_MS,
  });
  return { code: child.status, out: child.stdout + child.stderr };
}

const fixtureOf = async (id: string) => (await fetch(`${studio.url}api/conversations/${id}/fixture`)).text();

describe("copy as test", () => {
  it(
    "generates a vitest file that replays the stored conversation and passes",
    async () => {
      const source = await fixtureOf(ids.weather!);
      expect(source).toContain('"It is sunny in Oslo."');
      const run = runFixture("weather", source);
      expect(run.out).toMatch(/1 passed/);
      expect(run.code).toBe(0);
    },
    SLOW_WORK_MS,
  );

  it(
    "replays an answered question with its recorded answer, and fails when the recording differs",
    async () => {
      const source = await fixtureOf(ids.asked!);
      expect(source).toContain('"Thanks, Ada."');
      expect(runFixture("asked", source).code).toBe(0);
      // The tool now returns another answer than the model's recorded words expect.
      const changed = source.replace(/"name": "Ada"/, '"name": "Bo"').replace('"Thanks, Ada."', '"Thanks, Ada!"');
      const run = runFixture("asked-changed", changed);
      expect(run.code).toBe(1);
      expect(run.out).toContain("Thanks, Ada!");
    },
    SLOW_WORK_MS,
  );

  it("keeps any stored text inside its strings and comment (the file always parses)", () => {
    const text = fc.string({ unit: "binary", maxLength: 30 });
    const message = fc.oneof(
      text.map((t): Message => ({ sender: "user", text: t })),
      fc.tuple(text, text, fc.jsonValue()).map(([t, name, input]): Message => ({
        sender: "agent",
        text: t,
        tool_calls: [{ tool_name: name || "tool", input_args: input, id: "c1" }],
      })),
      fc.tuple(text, fc.jsonValue()).map(([name, data]): Message => ({
        sender: "user",
        text: "",
        tool_results: [{ tool_name: name || "tool", call_id: "c1", result: { status: "success", data } }],
      })),
    );
    fc.assert(
      fc.property(text, text, fc.option(text), fc.array(message, { maxLength: 8 }), (id, agent, title, messages) => {
        const source = fixtureSource({ id, agent, title }, messages);
        const file = ts.createSourceFile("f.ts", source, ts.ScriptTarget.ES2022, true);
        const diagnostics = (file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
        expect(diagnostics).toEqual([]);
        const parts = fixtureParts(messages);
        expect(
          parts.requests.length + parts.turns.length + parts.results.flatMap(([, results]) => results).length,
        ).toBe(messages.reduce((n, m) => n + (m.tool_results?.length ?? 1), 0));
      }),
      { numRuns: 200 },
    );
  });
});
