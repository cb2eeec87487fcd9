/**
 * Hostile and invalid RunAgentInput: refused with a 4xx and a clear JSON error before any stream
 * opens (never a 5xx, never a stack trace), and the thread stays a valid conversation.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { memoryStorage } from "glove-server";
import type { TestServer } from "../../support/harness.js";
import { expectValidHistory } from "../../suite/server-suite.js";
import { PROMPT_WAIT_MS } from "../../../../../test-support/timeouts.js";
import { startAgUiServer } from "./support/ag-ui-server.js";

let s: TestServer;
let threadId: string;
const logged: unknown[] = [];
beforeAll(async () => {
  s = await startAgUiServer({
    store: memoryStorage(),
    log: (message, error) => void logged.push([message, error]),
    script: [],
    limits: { textChars: 1000 },
  });
  threadId = crypto.randomUUID();
  // The thread exists and has a turn behind it.
  const first = await s.api("/ag-ui", {
    body: { threadId, runId: "r0", messages: [{ id: "m0", role: "user", content: "hello" }] },
  });
  expect(first.status).toBe(200);
});
afterAll(() => s.close());

/** Posts a raw body to the AG-UI route; an event stream is read to its end. */
async function post(
  raw: string,
  contentType = "application/json",
): Promise<{ status: number; body: string; type: string | null }> {
  const response = await fetch(`${s.url}/ag-ui`, {
    method: "POST",
    headers: { authorization: "Bearer alice", "content-type": contentType },
    body: raw,
    signal: AbortSignal.timeout(PROMPT_WAIT_MS),
  });
  return { status: response.status, body: await response.text(), type: response.headers.get("content-type") };
}

const expectRefused = (result: { status: number; body: string }, status: number, pattern: RegExp) => {
  expect(result.status).toBe(status);
  const error = JSON.parse(result.body).error as { code: string; message: string };
  expect(error.code).toMatch(/^GLOVE_[A-Z_]+$/);
  expect(error.message).toMatch(pattern);
};

describe("hostile RunAgentInput", () => {
  it("names what is wrong, with the right status", async () => {
    const user = (content: unknown) =>
      JSON.stringify({ threadId: crypto.randomUUID(), runId: "r", messages: [{ id: "u", role: "user", content }] });
    expectRefused(await post("{"), 400, /not valid JSON/);
    expectRefused(await post("[]"), 400, /JSON object/);
    expectRefused(await post("{}"), 400, /RunAgentInput/);
    expectRefused(
      await post(JSON.stringify({ threadId: "x", runId: "r", messages: [] })),
      400,
      /threadId "x" is not a conversation id/,
    );
    expectRefused(await post(JSON.stringify({ threadId, runId: "r", messages: "all of them" })), 400, /RunAgentInput/);
    expectRefused(
      await post(user([{ type: "image", url: "http://x" }])),
      400,
      /"image" part; this agent takes text parts only/,
    );
    expectRefused(await post(user(42)), 400, /string or a list of text parts/);
    expectRefused(await post(user("   ")), 400, /empty user message/);
    expectRefused(await post(user("x".repeat(1001))), 413, /limit is 1000/);
    expectRefused(
      await post(
        JSON.stringify({
          threadId,
          runId: "r",
          messages: Array.from({ length: 10_001 }, (_, i) => ({ id: `m${i}`, role: "user", content: "x" })),
        }),
      ),
      413,
      /at most 10000/,
    );
    expectRefused(
      await post(
        JSON.stringify({ threadId, runId: "r", messages: [], resume: [{ interruptId: "nope", status: "resolved" }] }),
      ),
      404,
      /no question "nope" waits/,
    );
    expectRefused(
      await post(
        JSON.stringify({ threadId, runId: "r", messages: [], resume: [{ interruptId: "a", status: "maybe" }] }),
      ),
      400,
      /RunAgentInput/,
    );
    expectRefused(await post("{}", "text/plain"), 415, /application\/json/);
  });

  it("never answers 5xx or leaks a stack, and the thread stays a valid conversation", async () => {
    const message = fc.record(
      {
        id: fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue()),
        role: fc.oneof(fc.constantFrom("user", "assistant", "tool", "system"), fc.jsonValue()),
        content: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const input = fc.record(
      {
        threadId: fc.oneof(fc.constant(threadId), fc.uuid(), fc.string({ maxLength: 40 }), fc.jsonValue()),
        runId: fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue()),
        messages: fc.oneof(fc.array(message, { maxLength: 4 }), fc.jsonValue()),
        resume: fc.oneof(
          fc.array(
            fc.record(
              {
                interruptId: fc.oneof(fc.string(), fc.jsonValue()),
                status: fc.oneof(fc.constantFrom("resolved", "cancelled"), fc.jsonValue()),
                payload: fc.jsonValue(),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 3 },
          ),
          fc.jsonValue(),
        ),
        state: fc.jsonValue(),
        tools: fc.jsonValue(),
        forwardedProps: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          input.map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 100 }),
        ),
        async (raw) => {
          const result = await post(raw);
          expect(result.status).toBeGreaterThanOrEqual(200);
          expect(result.status).toBeLessThan(500);
          if (result.status === 200) {
            expect(result.type).toMatch(/^text\/event-stream/);
            // A run that started ends as the protocol says: finished or failed.
            expect(result.body).toMatch(/"type":"RUN_(FINISHED|ERROR)"/);
          } else {
            expect(result.body).not.toMatch(/\bat .+\.ts:\d+/);
            expect(JSON.parse(result.body).error.message).toEqual(expect.any(String));
          }
        },
      ),
      { numRuns: 150 },
    );
    expect(logged).toEqual([]);
    const messages = (await s.api(`/conversations/${threadId}`)).body.messages as Message[];
    expectValidHistory(messages);
  });
});
