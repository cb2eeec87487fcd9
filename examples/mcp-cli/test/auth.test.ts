import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import { FsOAuthStore } from "glove-mcp/oauth";
import { runMcpCli } from "../src/agent.js";
import { authorizeEntry, REMOTE_ENTRIES } from "../src/remote.js";
// The protected server fixture of glove-mcp's own tests: server-everything behind the SDK's auth router.
import { startProtectedMcp, type ProtectedMcp } from "../../../packages/glove-mcp/test/support/oauth-server.js";
import { startEverything, type RunningServer } from "../../../packages/glove-mcp/test/support/servers.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

let everything: RunningServer;
let front: ProtectedMcp;

beforeAll(async () => {
  everything = await startEverything("streamableHttp");
  front = await startProtectedMcp({ upstream: new URL(everything.url), discovery: "well-known" });
});

afterAll(async () => {
  await front?.stop();
  await everything?.stop();
});

/** The user's browser: follow the authorization page's redirect to the CLI's callback. */
async function browse(authorizationUrl: URL): Promise<void> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  await (await fetch(page.headers.get("location")!)).text();
}

describe("auth <id> and the OAuth-backed adapter", () => {
  it(
    "stores a token with `auth`, then the agent discovers the server and calls it with that token",
    async () => {
      const notion = { ...REMOTE_ENTRIES.find((e) => e.id === "notion")!, url: front.url };
      const tokenFile = path.join(mkdtempSync(path.join(tmpdir(), "mcp-cli-auth-")), "tokens.json");
      const result = await authorizeEntry(notion, {
        store: new FsOAuthStore(tokenFile),
        port: 0,
        openBrowser: browse,
        log: () => {},
      });
      expect(result.reused).toBe(false);
      expect(result.verified?.tools).toBeGreaterThan(0);

      const { messages, activeEntries } = await runMcpCli({
        remote: [notion],
        tokenFile,
        inputs: ["Echo hi through Notion's server."],
        write: () => {},
        model: new ScriptedModel([
          { toolCalls: [{ name: "glove_invoke_subagent", input: { name: "discovermcp", prompt: "Notion" } }] },
          { toolCalls: [{ name: "mcp_activate", input: { id: "notion" } }] },
          { text: "Activated notion." },
          { toolCalls: [{ name: "notion__echo", input: { message: "hi" } }] },
          { text: "done" },
        ]),
      });
      const results = messages.flatMap((m) => m.tool_results ?? []);
      expect(results.map((r) => [r.tool_name, r.result.status])).toEqual([
        ["glove_invoke_subagent", "success"],
        ["notion__echo", "success"],
      ]);
      expect(activeEntries).toEqual(["notion"]);
    },
    SLOW_WORK_MS,
  );

  it("says which variables Gmail's pre-registered client needs", async () => {
    const gmail = REMOTE_ENTRIES.find((e) => e.id === "gmail")!;
    const store = new FsOAuthStore(path.join(mkdtempSync(path.join(tmpdir(), "mcp-cli-auth-")), "t.json"));
    await expect(authorizeEntry(gmail, { store, env: {} })).rejects.toThrow(
      /GMAIL_OAUTH_CLIENT_ID and GMAIL_OAUTH_CLIENT_SECRET/,
    );
  });
});
