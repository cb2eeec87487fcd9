import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import type { ModelAdapter } from "glove-core";
import { listenNode, type Listening } from "../../../src/http/node-listen.js";
import { createModelRelay, type ModelRelay, type ModelRelayOptions } from "../../../src/relay/index.js";
import { PROMPT_WAIT_MS } from "../../../../../test-support/timeouts.js";

export const TOKEN = "Bearer good-token";
export const MODELS = ["small-model", "big-model"];

/** Accepts `Bearer good-token` (and `Bearer user-<id>` as that user), nothing else. */
export async function testAuthenticate(request: Request): Promise<{ id: string } | null> {
  const header = request.headers.get("authorization") ?? "";
  if (header === TOKEN) return { id: "user-1" };
  const match = /^Bearer user-([\w-]+)$/.exec(header);
  return match ? { id: match[1]! } : null;
}

export interface RunningRelay {
  relay: ModelRelay;
  server: Listening;
  url: string;
  /** Every upstream adapter built, with the model and max tokens it was built for. */
  built: Array<{ model: string; maxTokens: number; adapter: ScriptedModel }>;
  logged: Array<{ message: string; error: unknown }>;
  close(): Promise<void>;
}

/** A relay on 127.0.0.1 whose upstream is a ScriptedModel per request (the steps are shared, in order). */
export async function startRelay(
  steps: ScriptedStep[] | ((model: string) => ModelAdapter),
  options: Partial<ModelRelayOptions> = {},
): Promise<RunningRelay> {
  const built: RunningRelay["built"] = [];
  const logged: RunningRelay["logged"] = [];
  const queue = Array.isArray(steps) ? [...steps] : [];
  const relay = createModelRelay({
    authenticate: testAuthenticate,
    models: MODELS,
    provider: (model, { maxTokens }) => {
      if (!Array.isArray(steps)) return steps(model);
      const step = queue.shift();
      const adapter = new ScriptedModel(step ? [step] : [], { name: `scripted:${model}` });
      built.push({ model, maxTokens, adapter });
      return adapter;
    },
    log: (message, error) => logged.push({ message, error }),
    keepAliveMs: 0,
    ...options,
  });
  const server = await listenNode(relay.fetch, {});
  return { relay, server, url: server.url, built, logged, close: () => server.close() };
}

/** POSTs `body` (an object is sent as JSON) with the good token unless other headers are given. */
export function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = { authorization: TOKEN },
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export interface WireEvent {
  event: string;
  data: unknown;
}

/** The events of a whole SSE body (the relay writes one `event:` and one `data:` line per event). */
export async function readEvents(response: Response): Promise<WireEvent[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "" && !block.startsWith(":"))
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))!.slice(7);
      const data = lines.find((l) => l.startsWith("data: "))!.slice(6);
      return { event, data: JSON.parse(data) as unknown };
    });
}

export const userMessage = (text = "hi") => ({ sender: "user", text });

/** Polls `check` until it is true (or fails after `timeoutMs`). */
export async function until(check: () => boolean, timeoutMs = PROMPT_WAIT_MS): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
