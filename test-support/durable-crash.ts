import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import { unansweredToolCalls, type Message, type StoreAdapter } from "glove-core";
import { repoRoot, runNode } from "./child-processes.js";
import { PROMPT_WAIT_MS } from "./timeouts.js";

/**
 * The embedded durable-questions crash test, for any store two processes can open: a child asks
 * (test-support/fixtures/durable-booking.mjs), is killed with SIGKILL while it waits, `restarts - 1`
 * more children only list the stored question and are killed too, and a last child answers it.
 */
export interface DurableCrashTarget {
  /** The package's fixture, run as `node <script> ...args <effectsFile> <mode> <name>`. */
  script: string;
  args: string[];
  /** The conversation's store, opened in the test's own process. */
  store: StoreAdapter;
  /** Where the tool writes one line per effect. */
  effectsFile: string;
}

/** Every tool call has exactly one result, and none waits for one. */
export function expectValidHistory(messages: readonly Message[]): void {
  const calls = messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
  const results = messages.flatMap((m) => m.tool_results ?? []).map((r) => r.call_id);
  expect([...results].sort()).toEqual([...calls].sort());
  expect(new Set(results).size).toBe(results.length);
  expect(unansweredToolCalls(messages)).toEqual([]);
}

/** Runs a child until `ready` says so, then kills it with SIGKILL. Fails when it exits first. */
async function killWhen(
  script: string,
  args: string[],
  ready: (stdout: string) => boolean | Promise<boolean>,
): Promise<string> {
  const child = spawn(process.execPath, [script, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  const giveUpAt = Date.now() + PROMPT_WAIT_MS;
  while (!(await ready(stdout))) {
    if (exit)
      throw new Error(
        `child ${script} exited (${JSON.stringify(exit)}) before it was killed; stdout: ${stdout}; stderr: ${stderr}`,
      );
    if (Date.now() > giveUpAt) {
      child.kill("SIGKILL");
      throw new Error(`child ${script} never got ready; stdout: ${stdout}; stderr: ${stderr}`);
    }
    await sleep(50);
  }
  child.kill("SIGKILL");
  await exited;
  expect(exit?.signal).toBe("SIGKILL");
  return stdout;
}

/** The JSON a child printed after `tag`. */
function printed(stdout: string, tag: string): unknown {
  const line = stdout.split("\n").find((l) => l.startsWith(`${tag} `));
  if (!line) throw new Error(`no ${tag} line in: ${stdout}`);
  return JSON.parse(line.slice(tag.length + 1));
}

/**
 * The whole story: asked, killed (`restarts` times in all), answered by a new process. Checks the
 * turn finished with the answer, each effect happened once, the history is valid and the
 * question was answered once.
 */
export async function expectKilledQuestionAnsweredOnce(
  { script, args, store, effectsFile }: DurableCrashTarget,
  restarts: number,
): Promise<void> {
  const child = (mode: string) => [...args, effectsFile, mode, "Grace"];
  const pendingQuestions = async () =>
    ((await store.getWaits?.({ status: "pending" })) ?? []).filter((w) => w.kind === "question");
  // 1. The process that asks dies while it waits, once the question is stored.
  await killWhen(script, child("ask"), async () => (await pendingQuestions()).length > 0);
  const [question] = await pendingQuestions();
  expect(readFileSync(effectsFile, "utf8")).toBe("deposit\n");

  // 2. Processes that start, see the question, and die too.
  for (let i = 1; i < restarts; i++) {
    const out = await killWhen(script, child("list"), (stdout) => stdout.includes("PENDING "));
    expect(printed(out, "PENDING")).toEqual([
      expect.objectContaining({
        id: question!.id,
        toolName: "book_table",
        toolCallId: "call-book-1",
        input: { restaurant: "Chez Ada" },
      }),
    ]);
  }

  // 3. A new process answers: the turn resumes there and finishes.
  const { code, out } = await runNode(script, child("answer"));
  expect(code, out).toBe(0);
  expect(printed(out, "RESULT")).toEqual({
    text: "success: Chez Ada for Grace (deposit-1)",
    pending: [question!.id],
    after: [],
  });

  // The deposit (before the wait) ran once, in the killed process; the booking once, after the answer.
  expect(readFileSync(effectsFile, "utf8")).toBe("deposit\nbooked Grace\n");
  const messages = await store.getMessages();
  expectValidHistory(messages);
  expect(messages.flatMap((m) => m.tool_results ?? []).map((r) => [r.call_id, r.result.status])).toEqual([
    ["call-book-1", "success"],
  ]);
  expect(messages.at(-1)).toMatchObject({ sender: "agent", text: "success: Chez Ada for Grace (deposit-1)" });
  const waits = (await store.getWaits?.()) ?? [];
  expect(waits.map((w) => [w.kind, w.status, w.value])).toEqual([
    ["step", "resolved", "deposit-1"],
    ["question", "resolved", { name: "Grace" }],
  ]);
}
