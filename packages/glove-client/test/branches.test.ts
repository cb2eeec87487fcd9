import { afterEach, describe, expect, it } from "vitest";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import {
  buildTimeline,
  GloveStore,
  LocalSession,
  type AgentTextEntry,
  type GloveState,
  type TimelineEntry,
  type UserEntry,
} from "glove-client";
import { session as openSession, startServer } from "./support/server.js";
import { immediateFrames, MemoryStorage, waitForState } from "./support/wait.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What a page shows: each entry's text and, for messages with alternatives, "index/count". */
function shown(state: GloveState): string[] {
  return buildTimeline(state).map((entry: TimelineEntry) => {
    const text = (entry as UserEntry | AgentTextEntry).text;
    const branch = "branch" in entry && entry.branch ? ` [${entry.branch.index + 1}/${entry.branch.count}]` : "";
    return `${entry.kind}:${text}${branch}`;
  });
}

const quiet = (store: GloveStore, messages: number) =>
  waitForState(store, (s) => !s.busy && s.pending.length === 0 && s.messages.length === messages);
const entry = (state: GloveState, kind: string, text: string) =>
  buildTimeline(state).find((e) => e.kind === kind && (e as UserEntry).text === text) as UserEntry | AgentTextEntry;

describe("regenerate, edit and switch in server mode (a real glove-server)", () => {
  it("a second tab follows; entries carry their branch; switching shows the older answer; refusals are results, not throws", async () => {
    const started = await startServer([
      { text: "First answer." },
      { text: "Second answer." },
      { text: "Edited answer." },
    ]);
    cleanups.push(started.close);
    const one = openSession(started.url);
    cleanups.push(() => one.dispose());
    one.sendMessage("hello");
    const first = await quiet(one.store, 2);
    const two = openSession(started.url, { conversationId: first.conversationId! });
    cleanups.push(() => two.dispose());
    await quiet(two.store, 2);

    expect(await one.regenerate()).toEqual({ ok: true });
    await waitForState(
      one.store,
      (s) => !s.busy && shown(s).join("|") === "user:hello|agent_text:Second answer. [2/2]",
    );
    await waitForState(
      two.store,
      (s) => !s.busy && shown(s).join("|") === "user:hello|agent_text:Second answer. [2/2]",
    );

    const hello = entry(one.store.current, "user", "hello");
    expect(await two.editMessage(hello.messageId!, "hello, edited")).toEqual({ ok: true });
    const edited = await waitForState(
      one.store,
      (s) => !s.busy && shown(s).join("|") === "user:hello, edited [2/2]|agent_text:Edited answer.",
    );
    expect(edited.messages.map((m) => m.text)).toEqual(["hello, edited", "Edited answer."]);

    const branch = entry(edited, "user", "hello, edited").branch!;
    expect(await one.switchBranch(branch.siblings[0]!)).toEqual({ ok: true });
    await waitForState(two.store, (s) => shown(s).join("|") === "user:hello [1/2]|agent_text:Second answer. [2/2]");

    // Refused: a message that is on another branch now, and an agent message.
    expect(await one.editMessage(edited.messages[0]!.id!, "nope")).toMatchObject({ ok: false, reason: "not_found" });
    const answer = entry(one.store.current, "agent_text", "Second answer.");
    expect(await one.editMessage(answer.messageId!, "nope")).toMatchObject({ ok: false, reason: "invalid" });
  });
});

describe("regenerate, edit and switch in local mode (the Glove in the tab)", () => {
  function open(script: ScriptedTurn[], storage: MemoryStorage): LocalSession {
    // Slow enough that a turn is seen running (streamed word by word).
    const model = new ScriptedModel(script, { delayMs: 5 });
    const session = new LocalSession(
      { model, systemPrompt: "You are a test agent.", sessionId: "branching", persistSession: { storage } },
      new GloveStore(undefined, { scheduler: immediateFrames }),
    );
    cleanups.push(() => session.dispose());
    session.start();
    return session;
  }

  it("runs them as turns, shows the branches, refuses while a turn runs, and keeps every branch across a reload (persistSession)", async () => {
    const storage = new MemoryStorage();
    const session = open([{ text: "A1" }, { text: "A2" }, { text: "B1 takes a while to stream" }], storage);
    session.sendMessage("q");
    await quiet(session.store, 2);
    expect(await session.regenerate()).toEqual({ ok: true });
    expect(shown(session.store.current)).toEqual(["user:q", "agent_text:A2 [2/2]"]);

    const q = entry(session.store.current, "user", "q");
    const editing = session.editMessage(q.messageId!, "q2");
    await waitForState(session.store, (s) => s.busy);
    expect(await session.regenerate()).toMatchObject({ ok: false, reason: "busy" });
    expect(await editing).toEqual({ ok: true });
    expect(shown(session.store.current)).toEqual(["user:q2 [2/2]", "agent_text:B1 takes a while to stream"]);

    expect(await session.switchBranch(q.messageId!)).toEqual({ ok: true });
    expect(shown(session.store.current)).toEqual(["user:q [1/2]", "agent_text:A2 [2/2]"]);
    session.dispose();

    const reloaded = open([], storage);
    const state = await waitForState(reloaded.store, (s) => s.messages.length === 2);
    expect(shown(state)).toEqual(["user:q [1/2]", "agent_text:A2 [2/2]"]);
    const other = entry(state, "user", "q").branch!.siblings[1]!;
    expect(await reloaded.switchBranch(other)).toEqual({ ok: true });
    expect(shown(reloaded.store.current)).toEqual(["user:q2 [2/2]", "agent_text:B1 takes a while to stream"]);
  });
});
