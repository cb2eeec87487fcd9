import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { canOpenBrowser, McpOAuthError, openerCommand, openInBrowser, startCallbackListener } from "glove-mcp/oauth";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

describe("callback listener", () => {
  it("binds 127.0.0.1, answers only its path and hands over the callback's query", async () => {
    const listener = await startCallbackListener(0, "/oauth/cb");
    try {
      expect(listener.redirectUrl).toBe(`http://127.0.0.1:${listener.port}/oauth/cb`);
      const waiting = listener.waitForCallback({ timeoutMs: 5_000 });
      expect((await fetch(`http://127.0.0.1:${listener.port}/other?code=x`)).status).toBe(404);
      const page = await fetch(`${listener.redirectUrl}?code=abc&state=s1`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("You can close this window");
      expect(await waiting).toMatchObject({ code: "abc", state: "s1", error: null });
    } finally {
      await listener.close();
    }
  });

  it("ignores hits with another state (a forged redirect cannot cancel the login) until the right one", async () => {
    const listener = await startCallbackListener(0);
    try {
      const waiting = listener.waitForCallback({ timeoutMs: 5_000, expectedState: "real" });
      const forged = await fetch(`${listener.redirectUrl}?error=access_denied&state=forged`);
      expect(forged.status).toBe(400);
      expect(await forged.text()).toContain("ignored");
      const noState = await fetch(`${listener.redirectUrl}?code=evil`);
      expect(noState.status).toBe(400);
      expect((await fetch(`${listener.redirectUrl}?code=good&state=real`)).status).toBe(200);
      expect(await waiting).toMatchObject({ code: "good", state: "real" });
    } finally {
      await listener.close();
    }
  });

  it("fails with a clear error on timeout and on abort", async () => {
    const listener = await startCallbackListener(0);
    try {
      const late = await listener.waitForCallback({ timeoutMs: 30 }).catch((e: unknown) => e);
      expect(McpOAuthError.isInstance(late)).toBe(true);
      expect(late).toMatchObject({ step: "callback", message: expect.stringContaining("No OAuth callback arrived") });
      const controller = new AbortController();
      const waiting = listener.waitForCallback({ signal: controller.signal }).catch((e: unknown) => e);
      controller.abort();
      expect(await waiting).toMatchObject({ step: "callback", message: expect.stringContaining("aborted") });
    } finally {
      await listener.close();
    }
  });

  it("reports a taken port as an McpOAuthError", async () => {
    const first = await startCallbackListener(0);
    try {
      const error = await startCallbackListener(first.port).catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: "McpOAuthError",
        message: expect.stringContaining(`127.0.0.1:${first.port}`),
      });
    } finally {
      await first.close();
    }
  });
});

describe("opening the browser", () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it("is off under CI and without a display on Linux", () => {
    expect(canOpenBrowser({ CI: "true", DISPLAY: ":0" }, "linux")).toBe(false);
    expect(canOpenBrowser({}, "linux")).toBe(false);
    expect(canOpenBrowser({ WAYLAND_DISPLAY: "wayland-0" }, "linux")).toBe(true);
    expect(canOpenBrowser({}, "darwin")).toBe(true);
  });

  it("passes a hostile URL to the opener as one argument, with no shell in between", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "glove-opener-"));
    const argsFile = path.join(dir, "args");
    const marker = path.join(dir, "pwned");
    // A stand-in xdg-open that records its argv, one argument per line.
    const opener = path.join(dir, "xdg-open");
    writeFileSync(opener, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${argsFile}"\n`);
    chmodSync(opener, 0o755);
    process.env.PATH = `${dir}:${savedPath ?? ""}`;

    const hostile = new URL(`https://auth.example/authorize?a=1&b=$(touch ${marker})&c=;touch%20${marker}`);
    const [command, args] = openerCommand(hostile.href, "linux");
    expect([command, args]).toEqual(["xdg-open", [hostile.href]]);
    expect(openerCommand(hostile.href, "win32")).toEqual(["rundll32", ["url.dll,FileProtocolHandler", hostile.href]]);

    if (process.platform === "linux") {
      expect(await openInBrowser(hostile)).toBe(true);
      const written = () => existsSync(argsFile) && readFileSync(argsFile, "utf8").endsWith("\n");
      for (const end = Date.now() + PROMPT_WAIT_MS; Date.now() < end && !written();)
        await new Promise((r) => setTimeout(r, 20));
      expect(readFileSync(argsFile, "utf8")).toBe(`${hostile.href}\n`);
      expect(existsSync(marker)).toBe(false);
    }
  });

  it("refuses URLs that are not http(s)", async () => {
    await expect(openInBrowser(new URL("file:///etc/passwd"))).rejects.toThrow(/non-HTTP/);
  });
});
