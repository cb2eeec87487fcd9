import { Displaymanager, Glove, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { createGloveServer, memoryStorage, type GloveServerOptions } from "glove-server";
import { GloveStore, ServerSession, type ServerSessionOptions } from "glove-client";
import { askAge, deleteFile, showCard, slowJob } from "./tools.js";
import { immediateFrames } from "./wait.js";

/**
 * A real glove-server on 127.0.0.1 with the test tools folded into its agent (the same tool
 * definitions the client renders with). Every conversation's model plays from one shared script.
 */
export async function startServer(
  script: ScriptedTurn[],
  options: { delayMs?: number } & Partial<Omit<GloveServerOptions, "agents" | "authenticate">> = {},
) {
  const { delayMs = 2, ...rest } = options;
  const server = createGloveServer({
    agents: {
      assistant: ({ store }: { store: StoreAdapter }) =>
        new Glove({
          store,
          model: new ScriptedModel([], { delayMs, fallback: () => script.shift() ?? { text: "(no more script)" } }),
          displayManager: new Displaymanager(),
          systemPrompt: "You are a test agent.",
          compaction_config: { compaction_instructions: "Summarize." },
        })
          .fold(askAge)
          .fold(showCard)
          .fold(deleteFile)
          .fold(slowJob)
          .defineHook("boom", async () => {
            throw new Error("the hook failed");
          }),
    },
    authenticate: (request) => {
      const header = request.headers.get("authorization");
      return header?.startsWith("Bearer ") ? { id: header.slice(7) } : null;
    },
    store: memoryStorage(),
    ...rest,
  });
  const listening = await server.listen();
  return { server, url: listening.url, close: () => server.close() };
}

/** startServer for tests that close what they started: each server's close goes on `cleanups` (run in afterEach). */
export function serversClosedBy(cleanups: Array<() => unknown>) {
  return async (...args: Parameters<typeof startServer>) => {
    const started = await startServer(...args);
    cleanups.push(started.close);
    return started;
  };
}

/**
 * fetch with a hand on the wire: the test can cut every open event stream (a dropped connection),
 * refuse new connections (offline), and see each request and every event type that arrived.
 */
export function wire() {
  const requests: Array<{ url: string; method: string; headers: Record<string, string>; at: number }> = [];
  const cutters = new Set<() => void>();
  const seen: string[] = [];
  const state = { offline: false };
  const wrapped: typeof fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    requests.push({ url, method: init?.method ?? "GET", headers, at: Date.now() });
    if (state.offline) throw new TypeError("fetch failed (the test took the network down)");
    const response = await fetch(input, init);
    if (!response.headers.get("content-type")?.startsWith("text/event-stream") || !response.body) return response;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let cut = false;
    let wake: () => void = () => undefined;
    const cutting = new Promise<void>((resolve) => (wake = resolve));
    const cutter = () => {
      cut = true;
      wake();
    };
    cutters.add(cutter);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await Promise.race([reader.read(), cutting.then(() => undefined)]);
        if (cut || !next) {
          cutters.delete(cutter);
          void reader.cancel().catch(() => undefined);
          controller.error(new TypeError("network connection lost (test)"));
          return;
        }
        if (next.done) {
          cutters.delete(cutter);
          controller.close();
          return;
        }
        for (const m of decoder.decode(next.value, { stream: true }).matchAll(/^event: (\S+)/gm)) seen.push(m[1]!);
        controller.enqueue(next.value);
      },
      cancel() {
        cutters.delete(cutter);
        void reader.cancel().catch(() => undefined);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: wrapped,
    requests,
    seen,
    /** Drops every open event stream. */
    cut() {
      for (const cutter of [...cutters]) cutter();
    },
    set offline(value: boolean) {
      state.offline = value;
    },
    get openStreams() {
      return cutters.size;
    },
  };
}

export function session(url: string, options: Partial<ServerSessionOptions> & { user?: string } = {}): ServerSession {
  const { user = "alice", ...rest } = options;
  const s = new ServerSession(
    {
      server: url,
      headers: { authorization: `Bearer ${user}` },
      backoff: { initialMs: 10, maxMs: 200, jitter: 0 },
      ...rest,
    },
    new GloveStore(undefined, { scheduler: immediateFrames }),
  );
  s.start();
  return s;
}
