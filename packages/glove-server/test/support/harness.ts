import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { Displaymanager, Glove, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { createGloveServer, type GloveServer, type GloveServerOptions, type Listening } from "glove-server";
import { SseClient } from "./sse-client.js";

/** Bearer tokens of the test users: the token is the principal id. */
export const authenticate = (request: Request) => {
  const header = request.headers.get("authorization");
  return header?.startsWith("Bearer ") ? { id: header.slice(7) } : null;
};

export interface AgentKit {
  /** The script every new conversation's model plays (a fresh copy each). */
  script: ScriptedTurn[];
  delayMs: number;
  /** Called when the `slow_tool` tool runs, with its abort signal. */
  toolSignals: AbortSignal[];
  /** Characters per streamed text_delta (default: word by word). */
  chunkSize?: number;
}

/** An agent with tools that exercise the display stack, abort and permissions. */
export function testAgent(kit: AgentKit) {
  return ({ store }: { store: StoreAdapter }) =>
    new Glove({
      store,
      // The script is shared: a conversation rebuilt after eviction continues where it was.
      model: new ScriptedModel([], {
        delayMs: kit.delayMs,
        ...(kit.chunkSize !== undefined ? { chunkSize: kit.chunkSize } : {}),
        fallback: () => kit.script.shift() ?? { text: "(no more script)" },
      }),
      displayManager: new Displaymanager(),
      systemPrompt: "You are a test agent.",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .fold({
        name: "ask_age",
        description: "Asks the user for their age.",
        inputSchema: z.object({ question: z.string() }),
        resolveSchema: z.object({ age: z.number().int().min(0) }),
        displayStrategy: "hide-on-complete",
        do: async (input, display) => display.pushAndWait({ input }),
      })
      .fold({
        name: "show_card",
        description: "Shows a card.",
        inputSchema: z.object({ title: z.string() }),
        do: async (input, display) => {
          await display.pushAndForget({ input });
          return { status: "success", data: "shown", renderData: { card: input.title } };
        },
      })
      .fold({
        name: "read_file",
        description: "Returns `chars` characters, like a large file read or a fetched page.",
        inputSchema: z.object({ chars: z.number().int().min(0) }),
        do: async (input) => bigText(input.chars),
      })
      .fold({
        name: "slow_tool",
        description: "Takes a while; abortable.",
        inputSchema: z.object({}),
        do: async (_input, _display, _glove, signal) => {
          if (signal) kit.toolSignals.push(signal);
          await new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, 30_000);
            signal?.addEventListener("abort", () => {
              clearTimeout(timer);
              reject(new Error("stopped"));
            });
          });
          return "finished";
        },
      });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
type JsonBody = any;

export interface TestServer {
  server: GloveServer;
  listening: Listening;
  url: string;
  kit: AgentKit;
  api(
    path: string,
    init?: { method?: string; body?: unknown; user?: string; headers?: Record<string, string>; raw?: string },
  ): Promise<{ status: number; body: JsonBody; headers: Headers }>;
  /** An event stream; `readDelayMs` makes a slow reader (a pause before every socket read). */
  events(conversationId: string, opts?: { user?: string; after?: number; readDelayMs?: number }): SseClient;
  /** Creates a conversation as `user` and returns its id. */
  conversation(user?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startServer(
  options: Partial<GloveServerOptions> & { kit?: Partial<AgentKit> } = {},
): Promise<TestServer> {
  const kit: AgentKit = { script: [], delayMs: 2, toolSignals: [], ...options.kit };
  const { kit: _kit, ...rest } = options;
  // Without a store, or with a store factory (the catalog then stays in a file), the server keeps
  // its SQLite file under dataDir (./.glove otherwise): a folder of its own in the temporary
  // directory, never the repository.
  const dataDir = rest.dataDir === undefined ? mkdtempSync(join(tmpdir(), "glove-harness-")) : undefined;
  const server = createGloveServer({
    agents: { assistant: testAgent(kit) },
    authenticate,
    ...(dataDir ? { dataDir } : {}),
    ...rest,
  });
  const listening = await server.listen();
  const base = listening.url + (rest.basePath ?? "");
  const clients: SseClient[] = [];
  const api: TestServer["api"] = async (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.user !== "") headers.authorization = `Bearer ${init.user ?? "alice"}`;
    let body: string | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["content-type"] = "application/json";
    }
    const response = await fetch(base + path, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
  return {
    server,
    listening,
    url: base,
    kit,
    api,
    events(id, opts = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${opts.user ?? "alice"}` };
      if (opts.after !== undefined) headers["last-event-id"] = String(opts.after);
      const client = new SseClient(`${base}/conversations/${id}/events`, headers, {
        readDelayMs: opts.readDelayMs ?? 0,
      });
      clients.push(client);
      return client;
    },
    async conversation(user = "alice") {
      const created = await api("/conversations", { body: {}, user });
      if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
      return created.body.id as string;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `chars` characters of varied text (JSON escapes included), the same for the same length. */
export function bigText(chars: number): string {
  const line = 'line "quoted" \\ tab\t é ✓ 0123456789\n';
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

/** The text of every text_delta in order. */
export function streamedText(events: Array<{ event: string; data: unknown }>): string {
  return events
    .filter((e) => e.event === "text_delta")
    .map((e) => (e.data as { text: string }).text)
    .join("");
}
