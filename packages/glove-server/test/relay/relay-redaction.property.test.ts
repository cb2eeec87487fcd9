/**
 * Property: whatever an upstream provider answers when it fails (any status, JSON or not, before
 * or during the stream, through the OpenAI-compatible or the Anthropic adapter), nothing of its
 * body reaches the relay's client — no marker text, no secret, no stack trace — while the relay's
 * log holds the body with every secret replaced by "[redacted]".
 */
import { inspect } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Listening } from "../../src/http/node-listen.js";
import { createModelRelay, type ModelRelayOptions } from "../../src/relay/index.js";
import { startFakeUpstream, type FakeUpstream, type Respond } from "./support/fake-upstream.js";
import { post, readEvents, testAuthenticate, userMessage } from "./support/harness.js";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const KEY = "sk-proj-relayServerKey0123456789";
const token = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{${min},${max}}$`));

/** A secret as it shows up in error bodies, and the part of it that must never be seen. */
const secret = fc.oneof(
  token(20, 40).map((t) => ({ text: `sk-${t}`, hidden: `sk-${t}` })),
  token(20, 40).map((t) => ({ text: `sk-ant-api03-${t}`, hidden: t })),
  token(16, 40).map((t) => ({ text: `Authorization: Bearer ${t}`, hidden: t })),
  fc.stringMatching(/^[A-Z0-9]{16}$/).map((t) => ({ text: `AKIA${t}`, hidden: `AKIA${t}` })),
  fc.constant({ text: `x-api-key: ${KEY}`, hidden: KEY }),
  fc.constant({ text: `echo of the request: ${KEY.slice(0, 3)}${KEY.slice(3)}`, hidden: KEY }),
);
const trace = fc.tuple(fc.stringMatching(/^[a-z]{3,10}$/), fc.nat(999)).map(([dir, line]) => ({
  text: `    at handle (/srv/${dir}/internal/server.js:${line}:7)`,
  hidden: `/srv/${dir}/internal/server.js`,
}));
const noise = fc.string({ maxLength: 30 }).map((text) => ({ text, hidden: undefined }));
const separator = fc.constantFrom(" ", "\n", ", ", "; ");

const failure = fc.record({
  target: fc.constantFrom("openai" as const, "openai-json" as const, "anthropic" as const),
  where: fc.constantFrom("status" as const, "mid-stream" as const),
  status: fc.constantFrom(400, 401, 403, 404, 408, 413, 422, 429, 500, 502, 503, 529),
  json: fc.boolean(),
  code: fc.oneof(
    fc.constantFrom("server_error", "rate_limit_error", "overloaded_error", "invalid_api_key"),
    token(1, 20),
  ),
  marker: fc.stringMatching(/^[0-9a-f]{16}$/).map((hex) => `BODY-${hex}`),
  parts: fc.array(fc.oneof(secret, trace, noise), { minLength: 1, maxLength: 6 }),
  separators: fc.array(separator, { minLength: 6, maxLength: 6 }),
});
type Failure = typeof failure extends fc.Arbitrary<infer T> ? T : never;

interface Target {
  url: string;
  server: Listening;
}

let upstream: FakeUpstream;
let respond: Respond = (res) => res.end();
const logged: string[] = [];
const targets = new Map<Failure["target"], Target>();

beforeAll(async () => {
  upstream = await startFakeUpstream({ kind: "respond", respond: (res, request) => respond(res, request) });
  const base: ModelRelayOptions = {
    authenticate: testAuthenticate,
    provider: "openai",
    apiKey: KEY,
    baseURL: upstream.baseURL,
    adapterOptions: { maxRetries: 0 },
    models: ["m"],
    limits: { requestsPerMinute: 1_000_000 },
    keepAliveMs: 0,
    log: (message, error) => logged.push(`${message}\n${inspect(error, { depth: 8 })}`),
  };
  const variants: Array<[Failure["target"], Partial<ModelRelayOptions>]> = [
    ["openai", {}],
    ["openai-json", { adapterOptions: { maxRetries: 0, stream: false } }],
    ["anthropic", { provider: "anthropic", baseURL: upstream.baseURL.replace(/\/v1$/, "") }],
  ];
  for (const [name, options] of variants) {
    const server = await createModelRelay({ ...base, ...options }).listen();
    targets.set(name, { url: server.url, server });
  }
});
afterAll(async () => {
  for (const { server } of targets.values()) await server.close();
  await upstream.close();
});

/** The provider's answer for a failure: an error status with the body, or a 200 stream whose error event carries it. */
function answer(f: Failure, text: string): Respond {
  const anthropic = f.target === "anthropic";
  const errorJson = anthropic
    ? { type: "error", error: { type: f.code, message: text } }
    : { error: { message: text, type: f.code } };
  return (res) => {
    if (f.where === "status") {
      res.writeHead(f.status, { "content-type": f.json ? "application/json" : "text/plain" });
      res.end(f.json ? JSON.stringify(errorJson) : text);
      return;
    }
    res.writeHead(200, { "content-type": f.target === "openai-json" ? "application/json" : "text/event-stream" });
    if (f.target === "openai-json") res.end(JSON.stringify(errorJson));
    else if (anthropic) res.end(`event: error\ndata: ${JSON.stringify(errorJson)}\n\n`);
    else
      res.end(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] })}\n\ndata: ${JSON.stringify(errorJson)}\n\n`,
      );
  };
}

describe("relay property: upstream error bodies", () => {
  it(
    "never reach the client, and reach the log redacted",
    async () => {
      await fc.assert(
        fc.asyncProperty(failure, async (f) => {
          // The marker first: a long body may be cut after 500 characters, never before it.
          const text = [{ text: f.marker, hidden: f.marker }, ...f.parts]
            .map((p, i) => p.text + (f.separators[i] ?? " "))
            .join("");
          const hidden = f.parts.map((p) => p.hidden).filter((h): h is string => h !== undefined);
          respond = answer(f, text);
          const before = logged.length;

          const response = await post(targets.get(f.target)!.url, { messages: [userMessage()] });
          const client = await response.clone().text();
          const events = await readEvents(response);
          expect(events.at(-1)!.event).toBe("error");
          for (const h of [f.marker, ...hidden]) expect(client).not.toContain(h);
          expect(client).not.toMatch(/\bat handle\b|Traceback/);

          const log = logged.slice(before).join("\n");
          expect(log).toContain(f.marker);
          for (const h of hidden) {
            if (!h.startsWith("/srv/")) expect(log).not.toContain(h);
          }
          if (hidden.some((h) => !h.startsWith("/srv/"))) expect(log).toContain("[redacted]");
        }),
        { numRuns: 150 },
      );
    },
    SLOW_WORK_MS,
  );
});
