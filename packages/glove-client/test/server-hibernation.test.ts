/**
 * A tab whose connection drops stays correct across glove-server's hibernation (decision 0033):
 * back within the replay window it resumes with Last-Event-ID (no snapshot); back after it, the
 * conversation was put to sleep and the reconnect starts from a snapshot — either way no text is
 * shown twice or missing, and the next message runs on the woken conversation.
 */
import { afterEach, describe, expect, it } from "vitest";
import { buildTimeline, type ServerSession } from "glove-client";
import { session as openSession, startServer, wire } from "./support/server.js";
import { waitForState } from "./support/wait.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const FULL = "The quick brown fox jumps over the lazy dog, then naps in the warm afternoon sun for a while.";
const BACKOFF = { initialMs: 20, maxMs: 100, factor: 2, jitter: 0 };

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 1000) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("server mode across hibernation", () => {
  it("reconnects after the conversation went to sleep: one snapshot, the text once, and the next message works", async () => {
    const started = await startServer([{ text: FULL }, { text: "Second answer." }], {
      events: { replayWindowMs: 100 },
    });
    cleanups.push(started.close);
    const net = wire();
    const s: ServerSession = openSession(started.url, { fetch: net.fetch, offlineAfter: 1000, backoff: BACKOFF });
    cleanups.push(() => s.dispose());
    const texts: string[] = [];
    s.store.subscribe(() => texts.push(s.store.getSnapshot().streamingText));
    s.sendMessage("tell me");
    await waitForState(s.store, (st) => !st.busy && st.messages.length === 2);
    const snapshotsBefore = net.seen.filter((e) => e === "snapshot").length;

    net.offline = true;
    net.cut();
    await until(() => started.server.hibernatedConversations === 1);
    net.offline = false;

    const back = await waitForState(
      s.store,
      (st) => st.connection === "open" && net.seen.filter((e) => e === "snapshot").length > snapshotsBefore,
    );
    expect(back.messages.map((m) => m.text)).toEqual(["tell me", FULL]);
    expect(back.streamingText).toBe("");
    expect(buildTimeline(back).filter((e) => e.kind === "agent_text")).toHaveLength(1);
    for (const text of texts) expect(FULL.startsWith(text)).toBe(true); // never a duplicated chunk

    s.sendMessage("again");
    const after = await waitForState(s.store, (st) => !st.busy && st.messages.length === 4 && st.pending.length === 0);
    expect(after.messages.map((m) => m.text)).toEqual(["tell me", FULL, "again", "Second answer."]);
    expect(after.stats.turns).toBe(2);
  });
});
