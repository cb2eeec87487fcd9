import { expect, it } from "vitest";
import type { startServer, TestServer } from "../support/harness.js";
import type { SseEvent } from "../support/sse-client.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

type Start = (options?: Parameters<typeof startServer>[0]) => Promise<TestServer>;
interface Stats {
  turns: number;
  tokens_in: number;
  tokens_out: number;
}

/** Two turns: a tool call and an answer (two model calls), then one answer. */
const SCRIPT = [
  { toolCalls: [{ name: "show_card", input: { title: "Menu" } }], tokens_in: 10, tokens_out: 3 },
  { text: "Here is the menu.", tokens_in: 12, tokens_out: 4 },
  { text: "Two flat whites.", tokens_in: 20, tokens_out: 5 },
];
const AFTER_TWO_TURNS: Stats = { turns: 3, tokens_in: 42, tokens_out: 12 };

/** Stats a client holds: the snapshot's, plus what the events after it add. */
export function counted(events: ReadonlyArray<Pick<SseEvent, "event" | "data">>): Stats {
  const start = events.findLastIndex((e) => e.event === "snapshot");
  const stats = { ...(events[start]!.data as { stats: Stats }).stats };
  for (const { event, data } of events.slice(start + 1)) {
    if (event === "model_response_complete" || event === "model_response") stats.turns++;
    if (event === "token_consumption") {
      const { consumption } = data as { consumption: { tokens_in: number; tokens_out: number } };
      stats.tokens_in += consumption.tokens_in;
      stats.tokens_out += consumption.tokens_out;
    }
  }
  return stats;
}

/** The conversation's stats in its snapshot: what every tab starts from, kept across evictions. */
export function statsCases(start: Start): void {
  it("the snapshot carries the conversation's stats: after two turns, in every stream, after an eviction", async () => {
    const s = await start({ idleTimeoutMs: 100, kit: { script: SCRIPT.slice() } });
    const id = await s.conversation();
    expect((await s.api(`/conversations/${id}`)).body.stats).toEqual({ turns: 0, tokens_in: 0, tokens_out: 0 });
    const first = s.events(id);
    await first.waitForEvent("snapshot");
    await s.api(`/conversations/${id}/messages`, { body: { text: "The menu?" } });
    await first.waitForEvent("turn_end");
    expect((await s.api(`/conversations/${id}`)).body.stats).toEqual({ turns: 2, tokens_in: 22, tokens_out: 7 });
    await s.api(`/conversations/${id}/messages`, { body: { text: "Two flat whites, please." } });
    await first.waitFor((events) => events.filter((e) => e.event === "turn_end").length === 2);
    expect((await s.api(`/conversations/${id}`)).body.stats).toEqual(AFTER_TWO_TURNS);
    // The tab that watched both turns and a tab opened now agree.
    expect(counted(first.events)).toEqual(AFTER_TWO_TURNS);
    const second = s.events(id);
    expect((await second.waitForEvent("snapshot")).data).toMatchObject({ stats: AFTER_TWO_TURNS });
    await Promise.all([first.close(), second.close()]);

    for (const deadline = Date.now() + PROMPT_WAIT_MS; Date.now() < deadline && s.server.liveConversations > 0;)
      await new Promise((r) => setTimeout(r, 50));
    expect(s.server.liveConversations).toBe(0);
    expect((await s.api(`/conversations/${id}`)).body.stats).toEqual(AFTER_TWO_TURNS);
    // Reopened, it goes on counting from there.
    const third = s.events(id);
    await third.waitForEvent("snapshot");
    await s.api(`/conversations/${id}/messages`, { body: { text: "Thanks!" } });
    await third.waitForEvent("turn_end");
    const after = (await s.api(`/conversations/${id}`)).body.stats as Stats;
    expect(after.turns).toBe(4);
    expect(after.tokens_in).toBeGreaterThan(AFTER_TWO_TURNS.tokens_in);
    expect(counted(third.events)).toEqual(after);
  });
}
