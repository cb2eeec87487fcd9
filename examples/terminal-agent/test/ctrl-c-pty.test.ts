import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeServer, type FakeServer } from "../../../packages/glove-core/test/models/fake-server.js";
import { tempDir } from "./helpers.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
let dir: string;
let cleanup: () => Promise<void>;
let provider: FakeServer;

/** An OpenAI-compatible streamed answer: one delta (a tool call, or text), then the end. */
function streamed(delta: Record<string, unknown>, finish: string): string {
  const chunk = (body: unknown) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", ...(body as object) })}\n\n`;
  return (
    chunk({ choices: [{ index: 0, delta }] }) +
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: finish }] }) +
    "data: [DONE]\n\n"
  );
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  execFileSync("npx", ["tsc", "-b", "examples/terminal-agent"], { cwd: root, stdio: "pipe" });
  provider = await startFakeServer((req, res) => {
    const last = (req.body?.messages ?? []).at(-1) as { content?: unknown } | undefined;
    const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
    const body = /delete/.test(text)
      ? streamed(
          {
            tool_calls: [
              { index: 0, id: "call_1", type: "function", function: { name: "delete_note", arguments: '{"id":1}' } },
            ],
          },
          "tool_calls",
        )
      : streamed({ content: "Still here and listening." }, "stop");
    res.writeHead(200, { "content-type": "text/event-stream" }).end(body);
  });
}, SLOW_WORK_MS);
afterAll(async () => {
  await provider.close();
  await cleanup();
});

describe("the terminal demo in a pseudo-terminal", () => {
  it(
    "Ctrl-C at a permission prompt cancels the request and the prompt; the next request reaches the agent",
    async () => {
      // `script` gives the demo a real pseudo-terminal, so Ctrl-C is a keypress read by readline.
      const child = spawn(
        "script",
        ["-qfec", `${process.execPath} examples/terminal-agent/dist/main.js`, "/dev/null"],
        {
          cwd: root,
          env: {
            ...process.env,
            GLOVE_DATA_DIR: dir,
            GLOVE_PROVIDER: "openai",
            OPENAI_API_KEY: "test-key",
            GLOVE_BASE_URL: `${provider.url}/v1`,
            GLOVE_MODEL: "gpt-test",
            TERM: "dumb",
          },
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr.on("data", (c: Buffer) => (out += c.toString()));
      const waitFor = async (pattern: RegExp, from: number) => {
        for (let i = 0; i < 300; i++) {
          const match = pattern.exec(out.slice(from));
          if (match) return from + match.index + match[0].length;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`never saw ${pattern} in:\n${out}`);
      };
      try {
        let at = await waitFor(/you> /, 0);
        child.stdin.write("please delete note 1\r");
        at = await waitFor(/Allow delete_note\? \[y\/N\/always\]/, at);
        child.stdin.write("\x03");
        at = await waitFor(/request cancelled/, at);
        at = await waitFor(/you> /, at);
        child.stdin.write("are you there?\r");
        await waitFor(/Still here and listening\./, at);
        child.stdin.write("exit\r");
        const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
        expect(code).toBe(0);
        // The second request really went to the model, after the cancelled one.
        expect(provider.received).toHaveLength(2);
      } finally {
        child.kill("SIGKILL");
      }
    },
    SLOW_WORK_MS,
  );
});
