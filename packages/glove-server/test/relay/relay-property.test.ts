import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import { mutate, Random, randomJson, validBody } from "./support/random-json.js";
import { post, readEvents, startRelay, userMessage, type RunningRelay } from "./support/harness.js";

// Property: whatever JSON (or not-JSON) an authenticated client sends, the relay
// answers a deliberate status (never 500), reports nothing unexpected to its log,
// and keeps serving.
const SEED = 20_240_601;
const CASES = 400;
const EXPECTED_STATUSES = new Set([200, 400, 403, 413]);

let running: RunningRelay;
beforeAll(async () => {
  running = await startRelay(() => new ScriptedModel([], { fallback: { text: "ok" } }), {
    limits: { requestsPerMinute: 1_000_000, concurrentPerPrincipal: 1_000, bodyBytes: 64 * 1024 },
  });
});
afterAll(async () => {
  await running.close();
});

function bodies(): Array<{ label: string; raw: string }> {
  const r = new Random(SEED);
  const out: Array<{ label: string; raw: string }> = [];
  for (let i = 0; i < CASES; i++) {
    const shape = i % 5;
    let raw: string;
    if (shape === 0) raw = JSON.stringify(randomJson(r, 5));
    else if (shape === 1 || shape === 2) raw = JSON.stringify(mutate(r, validBody(r)));
    else if (shape === 3) raw = JSON.stringify(validBody(r, true));
    else {
      // Cut or corrupted JSON text.
      const text = JSON.stringify(validBody(r));
      raw = r.chance(0.5)
        ? text.slice(0, r.int(text.length))
        : text.replace(text[r.int(text.length)]!, String.fromCharCode(r.int(128)));
    }
    out.push({ label: `seed ${SEED} case ${i}`, raw });
  }
  return out;
}

describe("relay property: arbitrary bodies", () => {
  it(`never answers 500 or logs an unexpected error for ${CASES} generated bodies`, async () => {
    const seen = new Map<number, number>();
    const all = bodies();
    for (let i = 0; i < all.length; i += 8) {
      await Promise.all(
        all.slice(i, i + 8).map(async ({ label, raw }) => {
          const response = await post(running.url, raw);
          seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
          expect(
            EXPECTED_STATUSES.has(response.status),
            `${label}: status ${response.status} for ${raw.slice(0, 300)}`,
          ).toBe(true);
          if (response.status === 200) {
            const events = await readEvents(response);
            expect(["result", "error"], label).toContain(events.at(-1)!.event);
          } else {
            const body = (await response.json()) as { error: { code: string; message: string } };
            expect(typeof body.error.code, label).toBe("string");
          }
        }),
      );
    }
    expect(running.logged, JSON.stringify(running.logged.slice(0, 3))).toEqual([]);
    // The generator reaches both sides of the validator.
    expect(seen.get(200)).toBeGreaterThan(80);
    expect(seen.get(400)).toBeGreaterThan(80);
  });

  it("raw bytes that are not UTF-8 are a 400, and the relay still serves afterwards", async () => {
    const response = await fetch(running.url, {
      method: "POST",
      headers: { authorization: "Bearer good-token", "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(response.status).toBe(400);
    const ok = await post(running.url, { messages: [userMessage()] });
    expect(ok.status).toBe(200);
    expect((await readEvents(ok)).at(-1)!.event).toBe("result");
  });
});
