/** Shared setup of the Anthropic recorded-traffic tests: fixtures, adapters on a replay, event capture. */
import { fileURLToPath } from "node:url";
import { AnthropicAdapter, type AnthropicAdapterOptions } from "glove-core/models/anthropic";
import { loadFixture, type Fixture, type RecordedResponse } from "../support/index.js";

export const DIR = fileURLToPath(new URL(".", import.meta.url));

/**
 * A fixture recorded as one event's JSON per line (how some projects store streams), framed as the
 * Messages API sends it: `event: <type>`, `data: <json>`, blank line.
 */
export function sseFromLines(fixture: Fixture): RecordedResponse {
  const lines = new TextDecoder()
    .decode(fixture.response.body)
    .split("\n")
    .filter((l) => l.trim());
  const body = lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`).join("");
  return { status: 200, headers: { "content-type": "text/event-stream" }, body: new TextEncoder().encode(body) };
}

/** The recorded response of fixture `name` (JSON-lines `.txt` fixtures become SSE). */
export function recorded(name: string): RecordedResponse {
  const fixture = loadFixture(DIR, name);
  return fixture.response.headers["content-type"] === "text/plain" ? sseFromLines(fixture) : fixture.response;
}

/** An adapter for a replay at `baseURL` (or with a replay `fetch`), with thinking on as the recordings had it. */
export function adapter(
  options: Partial<AnthropicAdapterOptions> & { baseURL?: string; fetch?: typeof fetch },
): AnthropicAdapter {
  return new AnthropicAdapter({
    model: "claude-sonnet-4-20250514",
    apiKey: "test-key",
    maxTokens: 4096,
    thinking: { type: "enabled", budget_tokens: 3000 },
    retryBaseDelayMs: 5,
    ...options,
  });
}

/** Records every event a prompt sends to subscribers. */
export function events(): {
  list: Array<{ type: string; data: unknown }>;
  notify: (type: string, data: unknown) => Promise<void>;
} {
  const list: Array<{ type: string; data: unknown }> = [];
  return { list, notify: async (type, data) => void list.push({ type, data }) };
}

/** The message as a store would give it back (JSON round trip). */
export function stored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
