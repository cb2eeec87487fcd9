import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import { createBareSession } from "../bare-loop.js";
import { answer, startFakeOpenAI, TOOL_TURNS } from "../fake-openai.js";
import { createGloveSession } from "../glove-loop.js";

let server: Server;
let url: string;
let requests: () => number;
beforeAll(async () => {
  ({ server, url, requests } = await startFakeOpenAI());
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("adapter-e2e bench loops do the same work (not timing)", () => {
  it("the fake model plays 3 tool turns then text", () => {
    expect(answer([{ role: "user" }])).toContain('"name":"lookup"');
    expect(
      answer([
        { role: "user" },
        { role: "assistant" },
        { role: "tool" },
        { role: "assistant" },
        { role: "tool" },
        { role: "assistant" },
        { role: "tool" },
      ]),
    ).toContain('"finish_reason":"stop"');
  });

  it("both loops make the same calls and end with the same conversation shape", async () => {
    const before = requests();
    const glove = createGloveSession(url);
    for (let i = 0; i < 3; i++) await glove.request();
    const gloveCalls = requests() - before;
    const bare = createBareSession(url);
    for (let i = 0; i < 3; i++) await bare.request();
    const bareCalls = requests() - before - gloveCalls;
    expect(gloveCalls).toBe(3 * (TOOL_TURNS + 1));
    expect(bareCalls).toBe(gloveCalls);
    const gloveShape = (await glove.messages()).map((m) => {
      const msg = m as { sender: string; tool_calls?: unknown[]; tool_results?: unknown[] };
      return msg.tool_results
        ? "tool"
        : msg.sender === "agent"
          ? msg.tool_calls
            ? "assistant+call"
            : "assistant"
          : "user";
    });
    const bareShape = (await bare.messages()).map((m) => {
      const msg = m as { role: string; tool_calls?: unknown[] };
      return msg.role === "assistant" ? (msg.tool_calls ? "assistant+call" : "assistant") : msg.role;
    });
    expect(gloveShape).toEqual(bareShape);
    expect(gloveShape).toHaveLength(3 * (2 + 2 * TOOL_TURNS));
    expect(glove.events).toBeGreaterThan(0);
    expect(bare.events).toBeGreaterThan(0);
  });

  it("the Glove loop given fetch makes the same calls and events as on its default transport", async () => {
    const before = requests();
    const viaFetch = createGloveSession(url, true);
    const native = createGloveSession(url);
    for (let i = 0; i < 2; i++) await viaFetch.request();
    expect(requests() - before).toBe(2 * (TOOL_TURNS + 1));
    for (let i = 0; i < 2; i++) await native.request();
    const withoutIds = async (session: typeof native) =>
      (await session.messages()).map((m) => ({ ...(m as object), id: undefined }));
    expect(await withoutIds(viaFetch)).toEqual(await withoutIds(native));
    expect(viaFetch.events).toBe(native.events);
  });
});
