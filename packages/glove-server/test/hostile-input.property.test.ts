import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Message } from "glove-core";
import { memoryStorage } from "glove-server";
import { startServer, type TestServer } from "./support/harness.js";
import { expectValidHistory } from "./suite/server-suite.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";

let s: TestServer;
let id: string;
const logged: unknown[] = [];
beforeAll(async () => {
  s = await startServer({
    store: memoryStorage(),
    log: (message, error) => void logged.push([message, error]),
    kit: { script: [], delayMs: 0 },
  });
  id = await s.conversation();
  await s.api(`/conversations/${id}/messages`, { body: { text: "hello" } });
});
afterAll(() => s.close());

const segment = fc.oneof(
  fc.constantFrom(
    "conversations",
    "messages",
    "slots",
    "abort",
    "events",
    "..",
    "%2e%2e",
    "%00",
    "%E0%A4%A",
    "__proto__",
    "",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const body = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record({ text: fc.jsonValue(), clientMessageId: fc.jsonValue() }, { requiredKeys: [] })
    .map((v) => JSON.stringify(v)),
  fc.record({ resolve: fc.jsonValue(), reject: fc.jsonValue() }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constant('{"text": "unterminated'),
  fc.constant("\uFEFF{}"),
);

describe("hostile HTTP input", () => {
  it(
    "never answers 5xx, never leaks a stack trace, and leaves the conversation valid",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("GET", "POST", "DELETE", "PUT", "PATCH"),
          fc.array(segment, { maxLength: 5 }),
          fc.boolean(),
          body,
          fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", undefined),
          async (method, segments, intoConversation, raw, contentType) => {
            const path = intoConversation ? `/conversations/${id}/${segments.join("/")}` : `/${segments.join("/")}`;
            // Never delete the conversation under test.
            const safeMethod = method === "DELETE" && intoConversation && segments.length === 0 ? "GET" : method;
            const headers: Record<string, string> = { authorization: "Bearer alice" };
            if (contentType) headers["content-type"] = contentType;
            const response = await fetch(s.url + path, {
              method: safeMethod,
              headers,
              body: safeMethod === "GET" ? undefined : raw,
              signal: AbortSignal.timeout(PROMPT_WAIT_MS),
            }).catch((error: unknown) => ({ status: 0, error }) as const);
            if ("error" in response) throw new Error(`request failed: ${String(response.error)}`);
            expect(response.status).toBeGreaterThanOrEqual(200);
            expect(response.status).toBeLessThan(500);
            if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
              await response.body?.cancel();
              return;
            }
            const text = await response.text();
            expect(text).not.toMatch(/\n\s+at /);
          },
        ),
        { numRuns: 300, seed: 20261123 },
      );
      expect(logged).toEqual([]);
      // Whatever the fuzzer sent (messages, aborts, slot answers), the history pairs every call with a result.
      for (
        const end = Date.now() + PROMPT_WAIT_MS;
        Date.now() < end && (await s.api(`/conversations/${id}`)).body.busy;
      )
        await new Promise((r) => setTimeout(r, 20));
      const history = (await s.api(`/conversations/${id}`)).body.messages as Message[];
      expectValidHistory(history);
      expect(history[0]?.text).toBe("hello");
    },
    SLOW_WORK_MS,
  );
});
