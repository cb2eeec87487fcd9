import { afterEach, describe, expect, it, vi } from "vitest";
import { chooseTransport } from "#http-transport";
import { chooseTransport as browserChoice } from "../../../src/models/shared/http/platform-fetch.js";
import { nodeTransport } from "../../../src/models/shared/http/node.js";
import { OpenAICompatAdapter } from "../../../src/models/openai-compat/adapter.js";
import { recorder } from "../fake-server.js";
import { startServer } from "./server.js";

// Which transport a request takes. In Node (vitest resolves "#http-transport" with the "node"
// condition) it is node:http unless the user asked for fetch, directly or by configuring it.

const dispatcherKey = Symbol.for("undici.globalDispatcher.1");
const globals = globalThis as unknown as Record<symbol, unknown>;
const originalDispatcher = globals[dispatcherKey];

afterEach(() => {
  vi.unstubAllGlobals();
  globals[dispatcherKey] = originalDispatcher;
});

const answer = 'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

describe("choosing the transport", () => {
  it("is node:http by default in Node, fetch in the browser build", () => {
    expect(chooseTransport(undefined)).toBe(nodeTransport);
    expect(browserChoice(undefined)).not.toBe(nodeTransport);
  });

  it("uses the fetch option when given, on both builds", async () => {
    for (const choose of [chooseTransport, browserChoice]) {
      const calls: string[] = [];
      const fake: typeof fetch = async (input) => {
        calls.push(String(input));
        return new Response(answer, { headers: { "content-type": "text/event-stream" } });
      };
      const response = await choose(fake)({
        url: "http://example.test/x",
        headers: {},
        body: "{}",
        signal: new AbortController().signal,
      });
      expect(await response.text()).toBe(answer);
      expect(calls).toEqual(["http://example.test/x"]);
    }
  });

  it("honours a globalThis.fetch replaced after glove-core loaded (an instrumentation, a mock)", async () => {
    const seen: string[] = [];
    vi.stubGlobal("fetch", async (input: string | URL | Request) => {
      seen.push(String(input));
      return new Response(answer, { headers: { "content-type": "text/event-stream" } });
    });
    expect(chooseTransport(undefined)).not.toBe(nodeTransport);
    const model = new OpenAICompatAdapter({
      provider: "openai",
      model: "m",
      apiKey: "k",
      baseURL: "http://nowhere.test/v1",
      maxRetries: 0,
    });
    const { notify } = recorder();
    const result = await model.prompt({ messages: [{ sender: "user", text: "hello" }] }, notify);
    expect(result.messages[0]!.text).toBe("hi");
    expect(seen).toEqual(["http://nowhere.test/v1/chat/completions"]);
  });

  it("honours an undici global dispatcher the user set (a proxy, a mock agent), not Node's default one", () => {
    class ProxyAgent {}
    globals[dispatcherKey] = new ProxyAgent();
    expect(chooseTransport(undefined)).not.toBe(nodeTransport);
    // What Node installs itself on the first fetch: an Agent with no options.
    const options = Symbol("options");
    class Agent {
      [options] = { connect: undefined, interceptors: undefined };
    }
    globals[dispatcherKey] = new Agent();
    expect(chooseTransport(undefined)).toBe(nodeTransport);
    class Custom {
      [options] = { connect: { ca: "…" } };
    }
    Object.defineProperty(Custom, "name", { value: "Agent" });
    globals[dispatcherKey] = new Custom();
    expect(chooseTransport(undefined)).not.toBe(nodeTransport);
  });

  it("node:http asks for an uncompressed answer unless told otherwise (fetch's defaults otherwise)", async () => {
    const server = await startServer({ echo: (req, res) => res.writeHead(200).end(JSON.stringify(req.headers)) });
    try {
      const response = await nodeTransport({
        url: `${server.url}/echo`,
        headers: {},
        body: "",
        signal: new AbortController().signal,
      });
      expect(JSON.parse(await response.text())).toMatchObject({
        "accept-encoding": "identity",
        accept: "*/*",
        "user-agent": "node",
        "content-length": "0",
      });
    } finally {
      await server.close();
    }
  });

  it("closes an idle connection before the server's keep-alive hint, and never cuts a slow stream", async () => {
    const server = await startServer(
      {
        slow: (_req, res) => {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write("data: 1\n\n");
          setTimeout(() => res.end("data: 2\n\n"), 1_300);
        },
        quick: (_req, res) => res.writeHead(200).end("ok"),
      },
      2_000,
    );
    const request = (path: string) => ({
      url: `${server.url}${path}`,
      headers: {},
      body: "",
      signal: new AbortController().signal,
    });
    try {
      // The test server says "Keep-Alive: timeout=2": idle connections go after 1 s.
      expect(await (await nodeTransport(request("/quick"))).text()).toBe("ok");
      const reused = server.connections;
      expect(await (await nodeTransport(request("/slow"))).text()).toBe("data: 1\n\ndata: 2\n\n");
      expect(server.connections).toBe(reused);
      await new Promise((resolve) => setTimeout(resolve, 1_400));
      expect(await (await nodeTransport(request("/quick"))).text()).toBe("ok");
      expect(server.connections).toBe(reused + 1);
    } finally {
      await server.close();
    }
  });
});
