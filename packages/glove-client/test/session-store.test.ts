import { afterEach, describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import { ConfigurationError } from "glove-core";
import {
  checkSessionConfig,
  createGloveSession,
  GloveSessionStore,
  GloveStore,
  ServerSession,
  type GloveSessionConfig,
  type ToolEntry,
  type UserEntry,
} from "glove-client";
import { serversClosedBy, wire } from "./support/server.js";
import { askAge, showCard } from "./support/tools.js";
import { immediateFrames, waitForState } from "./support/wait.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const startServer = serversClosedBy(cleanups);

/** A GloveSessionStore opened on `config`, closed after the test. */
function opened(config: GloveSessionConfig | (() => GloveSessionConfig)): GloveSessionStore {
  const chat = new GloveSessionStore(config, { scheduler: immediateFrames });
  cleanups.push(chat.open());
  return chat;
}

const idle = (chat: GloveSessionStore) =>
  waitForState(chat.store, (s) => !s.busy && s.pending.length === 0 && s.messages.length > 1);

describe("GloveSessionStore (server mode)", () => {
  it("attaches to a glove-server, answers a slot and tells subscribers, with no UI framework", async () => {
    const { url } = await startServer([
      { toolCalls: [{ name: "ask_age", input: { question: "How old?" } }] },
      { text: "Thanks." },
    ]);
    const changed: string[] = [];
    const chat = opened({ server: url, headers: { authorization: "Bearer alice" }, tools: [askAge] });
    expect(chat.mode).toBe("server");
    chat.subscribe(() => changed.push(chat.getSnapshot().connection));
    chat.sendMessage("ask me");
    const asked = await waitForState(chat.store, (s) => s.slots.some((slot) => slot.status === "pending"));
    expect(await chat.resolveSlot(asked.slots[0]!.id, { age: 41 })).toEqual({ ok: true });
    const done = await idle(chat);
    const tool = chat.timeline(done).find((e): e is ToolEntry => e.kind === "tool")!;
    expect(tool).toMatchObject({ name: "ask_age", status: "success", renderData: { age: 41 } });
    expect(chat.session).toBeInstanceOf(ServerSession);
    expect(changed).toContain("open");
    expect(chat.getServerSnapshot().messages).toEqual([]); // what server rendering saw: the start
  });

  it("follows the conversation id of the config (an app mirroring onConversationChange tears nothing down)", async () => {
    const { url } = await startServer([{ text: "First." }]);
    let config: GloveSessionConfig = {
      server: url,
      headers: { authorization: "Bearer alice" },
      // The app keeps the id the session reports, as a page keeps it in its URL.
      onConversationChange: (id) => (config = { ...config, conversationId: id ?? undefined }),
    };
    const chat = opened(() => config);
    chat.sendMessage("one");
    const first = await idle(chat);
    const firstId = first.conversationId!;
    expect(config.conversationId).toBe(firstId);
    chat.configChanged(); // the session is already there: nothing happens
    expect(chat.store.current.conversationId).toBe(firstId);
    config = { ...config, conversationId: undefined };
    chat.configChanged(); // the id went away: a new conversation
    await waitForState(chat.store, (s) => s.conversationId === null && s.messages.length === 0);
    config = { ...config, conversationId: firstId };
    chat.configChanged();
    const back = await waitForState(chat.store, (s) => s.conversationId === firstId && s.messages.length > 1);
    expect(back.messages.map((m) => m.text)).toContain("First.");
  });

  it("a failed send's timeline entry carries a retry that sends it again", async () => {
    const { url } = await startServer([{ text: "Back." }]);
    const net = wire();
    const chat = opened({ server: url, headers: { authorization: "Bearer alice" }, fetch: net.fetch });
    await waitForState(chat.store, (s) => s.connection !== "connecting");
    net.offline = true;
    chat.sendMessage("hello");
    const failed = await waitForState(chat.store, (s) => s.pending.some((p) => p.status === "failed"));
    const entry = chat.timeline(failed).find((e): e is UserEntry => e.kind === "user")!;
    expect(entry.status).toBe("failed");
    net.offline = false;
    entry.retry!();
    const done = await idle(chat);
    expect(done.messages.map((m) => m.text)).toEqual(["hello", "Back."]);
  });
});

describe("GloveSessionStore (local mode)", () => {
  it("queues actions made before local mode's code loaded, then runs them in order", async () => {
    const model = new ScriptedModel([{ text: "Hello." }, { text: "Again." }], { delayMs: 0 });
    const chat = opened({ model, systemPrompt: "You greet.", tools: [showCard] });
    expect(chat.mode).toBe("local");
    expect(chat.session).toBeNull(); // local mode loads on demand
    expect(chat.sendMessage("hi")).toBe(""); // no client id before the session exists
    expect(await chat.regenerate()).toMatchObject({ ok: false, reason: "refused" });
    const done = await idle(chat);
    expect(chat.timeline(done).map((e) => e.kind)).toEqual(["user", "agent_text"]);
    expect((chat.timeline(done)[0] as UserEntry).text).toBe("hi");
    expect(chat.timeline(done)).toBe(chat.timeline(done)); // the same entries while the state is the same
  });
});

describe("createGloveSession and checkSessionConfig", () => {
  it("builds a server session at once and a local one on demand", async () => {
    const server = createGloveSession({ server: "http://127.0.0.1:9" }, new GloveStore());
    expect(server).toBeInstanceOf(ServerSession);
    const local = createGloveSession(
      { model: new ScriptedModel([]), systemPrompt: "x" },
      new GloveStore(undefined, { scheduler: immediateFrames }),
    );
    expect(local).toBeInstanceOf(Promise);
    const session = await local;
    expect(session.mode).toBe("local");
    session.dispose();
  });

  it("says what is missing, with glove-core's ConfigurationError", () => {
    expect(() => checkSessionConfig({ systemPrompt: "x" })).toThrow(ConfigurationError);
    expect(() => checkSessionConfig({ model: new ScriptedModel([]) })).toThrow(/systemPrompt/);
    expect(() => checkSessionConfig({ server: 42 as unknown as string })).toThrow(/glove-server's URL/);
    expect(() =>
      checkSessionConfig({ model: new ScriptedModel([]), systemPrompt: "x", tools: [{ name: "view_only" }] }),
    ).toThrow(/has no do\(\)/);
    expect(() => checkSessionConfig({ server: "/api/glove", tools: [{ name: "view_only" }] })).not.toThrow();
  });
});
