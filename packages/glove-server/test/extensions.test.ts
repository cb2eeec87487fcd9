/**
 * Server extensions: extra routes below basePath that run only after the host check, the origin
 * check and authenticate, with the caller, the storage and the conversations in hand.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, Displaymanager, Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createGloveServer, memoryStorage, type ExtensionContext, type ServerExtension } from "glove-server";
import { authenticate, startServer, type TestServer } from "./support/harness.js";

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const agents = {
  a: () =>
    new Glove({
      model: new ScriptedModel(),
      displayManager: new Displaymanager(),
      systemPrompt: "",
      compaction_config: { compaction_instructions: "" },
    }),
};

function recorder(): ServerExtension & { seen: ExtensionContext[] } {
  const seen: ExtensionContext[] = [];
  return {
    path: "peek",
    seen,
    async handle(context) {
      seen.push(context);
      return new Response(`<p>${context.segments.join("/")}</p>`, {
        headers: { "content-type": "text/html", "content-security-policy": "default-src 'self'" },
      });
    },
  };
}

describe("extensions", () => {
  it("are reached only with a principal, get the rest of the path, the storage and the host", async () => {
    const peek = recorder();
    const storage = memoryStorage();
    t = await startServer({ store: storage, basePath: "/api", extensions: [peek] });
    const anonymous = await fetch(`${t!.listening.url}/api/peek/a/b`);
    expect(anonymous.status).toBe(401);
    expect(peek.seen).toHaveLength(0);

    const signedIn = await fetch(`${t!.listening.url}/api/peek/a/b%20c`, {
      headers: { authorization: "Bearer alice" },
    });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toBe("<p>a/b c</p>");
    // The extension's own policy stays; the other hardening headers are added.
    expect(signedIn.headers.get("content-security-policy")).toBe("default-src 'self'");
    expect(signedIn.headers.get("x-frame-options")).toBe("DENY");
    const [context] = peek.seen;
    expect(context?.principal.id).toBe("alice");
    expect(context?.mountPath).toBe("/api/peek");
    expect(context?.storage).toBe(storage);
    expect(context?.host.size).toBe(0);

    // The server's own routes keep the strict policy.
    const list = await fetch(`${t!.listening.url}/api/conversations`, { headers: { authorization: "Bearer alice" } });
    expect(list.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it("refuses paths that collide or are not one segment", () => {
    const make = (path: string) => ({ path, handle: async () => new Response("") });
    for (const extensions of [[make("conversations")], [make("a"), make("a")], [make("a/b")], [make("")]]) {
      expect(() => createGloveServer({ agents, authenticate, store: memoryStorage(), extensions })).toThrow(
        ConfigurationError,
      );
    }
  });
});
