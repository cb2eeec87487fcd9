/** GloveChatTransport against a real glove-server on 127.0.0.1: what useChat would send, and what it reads back. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UIMessage, UIMessageChunk } from "ai";
import {
  ChatTransportError,
  GloveChatTransport,
  ServerRequestError,
  type GloveChatTransportOptions,
} from "glove-client/ai-sdk";
import { foldChunks } from "../../src/ai-sdk/ui-messages.js";
import { readAll, user } from "../support/ui-chat.js";
import { serversClosedBy, startServer, wire } from "../support/server.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const server = serversClosedBy(cleanups);

const transportFor = (url: string, options: Partial<GloveChatTransportOptions> = {}) =>
  new GloveChatTransport({ server: url, headers: { authorization: "Bearer alice" }, ...options });

/** What useChat does with a new message: send the history ending in it, read the reply. */
async function submit(transport: GloveChatTransport, chatId: string, messages: UIMessage[], abortSignal?: AbortSignal) {
  return readAll(
    await transport.sendMessages({ trigger: "submit-message", chatId, messageId: undefined, messages, abortSignal }),
  );
}

/** What addToolApprovalResponse + the automatic send do: the reply's approval parts answered, sent again. */
function answered(reply: UIMessage, approved: boolean): UIMessage {
  return {
    ...reply,
    parts: reply.parts.map((part) =>
      part.type.startsWith("tool-") && "approval" in part && part.state === "approval-requested"
        ? { ...part, state: "approval-responded", approval: { ...part.approval, approved } }
        : part,
    ) as UIMessage["parts"],
  };
}

describe("GloveChatTransport", () => {
  it("streams a turn's text and tool parts; loadMessages gives the same reply back", async () => {
    const { url } = await server([
      { text: "Let me show it.", toolCalls: [{ name: "show_card", input: { title: "Menu" } }] },
      { text: "There it is." },
    ]);
    const transport = transportFor(url);
    const id = await transport.createChat();
    const chunks = await submit(transport, id, [user("u1", "Show me")]);
    expect(chunks[0]).toEqual({ type: "start" });
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
    const reply = (await foldChunks(chunks))!;
    expect(reply.parts.map((p) => (p.type === "text" ? p.text : p.type))).toEqual([
      "step-start",
      "Let me show it.",
      "tool-show_card",
      "step-start",
      "There it is.",
    ]);
    expect(reply.parts[2]).toMatchObject({ state: "output-available", input: { title: "Menu" } });

    const loaded = await transport.loadMessages(id);
    expect(loaded.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(loaded[0]!.parts).toEqual([{ type: "text", text: "Show me" }]);
    expect(loaded[1]!.parts).toEqual(reply.parts);
  });

  it("a chat id that is not a conversation gets one on its first message and keeps it", async () => {
    const { url } = await server([{ text: "One." }, { text: "Two." }]);
    const transport = transportFor(url);
    await submit(transport, "local-chat-id", [user("u1", "first")]);
    const second = await submit(transport, "local-chat-id", [user("u1", "first"), user("u2", "second")]);
    expect(
      second
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join(""),
    ).toBe("Two.");
    const list = await (await fetch(`${url}/conversations`, { headers: { authorization: "Bearer alice" } })).json();
    expect(list.conversations).toHaveLength(1);
    expect(await transport.loadMessages("another-local-id")).toEqual([]);
  });

  it.each([true, false])(
    "a permission prompt is an approval; answered %s, the turn goes on in the same message",
    async (approved) => {
      const { url } = await server([
        { toolCalls: [{ name: "delete_file", input: { path: "/tmp/a" } }] },
        { text: "Finished." },
      ]);
      const transport = transportFor(url);
      const id = await transport.createChat();
      const first = await submit(transport, id, [user("u1", "Delete it")]);
      expect(first.slice(-3)).toEqual([
        { type: "tool-approval-request", approvalId: expect.any(String), toolCallId: expect.any(String) },
        { type: "finish-step" },
        { type: "finish", finishReason: "tool-calls" },
      ]);
      const reply = (await foldChunks(first))!;
      const rest = await submit(transport, id, [user("u1", "Delete it"), answered(reply, approved)]);
      const continued = (await foldChunks(rest, answered(reply, approved)))!;
      const outcome = approved
        ? { type: "tool-output-available", output: "deleted /tmp/a" }
        : { type: "tool-output-denied" };
      expect(rest).toContainEqual(expect.objectContaining(outcome));
      expect(continued.parts.some((p) => p.type === "text" && p.text === "Finished.")).toBe(true);
      const stored = (await transport.loadMessages(id))[1]!.parts.find((p) => p.type === "tool-delete_file");
      expect(stored).toMatchObject(approved ? { state: "output-available" } : { state: "output-error" });
    },
  );

  it("two prompts at once (gated calls run in parallel): the second is shown once the first answered call ran", async () => {
    const { url } = await server([
      {
        toolCalls: [
          { name: "delete_file", input: { path: "/tmp/1" } },
          { name: "delete_file", input: { path: "/tmp/2" } },
        ],
      },
      { text: "Both gone." },
    ]);
    const transport = transportFor(url);
    const id = await transport.createChat();
    const question = user("u1", "Delete both");
    const first = (await foldChunks(await submit(transport, id, [question])))!;
    const states = (message: UIMessage) =>
      message.parts.filter((p) => p.type === "tool-delete_file").map((p) => (p as { state: string }).state);
    expect(states(first)).toEqual(["approval-requested", "input-available"]);

    const secondChunks = await submit(transport, id, [question, answered(first, true)]);
    expect(secondChunks.at(-1)).toEqual({ type: "finish", finishReason: "tool-calls" });
    const second = (await foldChunks(secondChunks, answered(first, true)))!;
    expect(states(second)).toEqual(["output-available", "approval-requested"]);

    const last = (await foldChunks(
      await submit(transport, id, [question, answered(second, true)]),
      answered(second, true),
    ))!;
    expect(states(last)).toEqual(["output-available", "output-available"]);
    expect(last.parts.some((p) => p.type === "text" && p.text === "Both gone.")).toBe(true);
  });

  it("an approval answered after the server restarted runs the tool (the stored question's answer route)", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "glove-ai-sdk-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await startServer([{ toolCalls: [{ name: "delete_file", input: { path: "/tmp/b" } }] }], {
      dataDir,
      store: undefined,
    });
    const before = transportFor(first.url);
    const id = await before.createChat();
    await submit(before, id, [user("u1", "Delete it")]);
    await first.close();

    const second = await server([{ text: "Deleted after the restart." }], { dataDir, store: undefined });
    const after = transportFor(second.url);
    const loaded = await after.loadMessages(id);
    expect(loaded[1]!.parts.find((p) => p.type === "tool-delete_file")).toMatchObject({ state: "approval-requested" });
    const rest = await submit(after, id, [loaded[0]!, answered(loaded[1]!, true)]);
    expect(rest).toContainEqual(expect.objectContaining({ type: "tool-output-available", output: "deleted /tmp/b" }));
    expect(
      rest
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join(""),
    ).toBe("Deleted after the restart.");
  });

  it("stop (the abort signal) aborts the turn on the server", async () => {
    const { url } = await server([
      { text: "Working.", toolCalls: [{ name: "slow_job", input: {} }] },
      { text: "(not reached)" },
    ]);
    const transport = transportFor(url);
    const id = await transport.createChat();
    const controller = new AbortController();
    const stream = await transport.sendMessages({
      trigger: "submit-message",
      chatId: id,
      messageId: undefined,
      messages: [user("u1", "Go")],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    for (;;) {
      const { value } = await reader.read();
      if (value?.type === "tool-input-available") break;
    }
    controller.abort();
    expect((await reader.read()).done).toBe(true);
    let snapshot;
    do
      snapshot = await (
        await fetch(`${url}/conversations/${id}`, { headers: { authorization: "Bearer alice" } })
      ).json();
    while (snapshot.busy);
    expect(snapshot.messages.at(-1).tool_results[0].result.status).toBe("aborted");
  });

  it("reconnectToStream: nothing to resume when idle; during a turn a replay of the reply, then the live events", async () => {
    const { url } = await server([{ text: "Working on it.", toolCalls: [{ name: "slow_job", input: {} }] }]);
    const transport = transportFor(url);
    const id = await transport.createChat();
    expect(await transport.reconnectToStream({ chatId: id })).toBeNull();
    expect(await transport.reconnectToStream({ chatId: "not-a-conversation" })).toBeNull();
    const live = (
      await transport.sendMessages({
        trigger: "submit-message",
        chatId: id,
        messageId: undefined,
        messages: [user("u1", "Go")],
        abortSignal: undefined,
      })
    ).getReader();
    while ((await live.read()).value?.type !== "tool-input-available");

    const resumed = await transport.reconnectToStream({ chatId: id });
    expect(transport.resumeStreamIsReplay).toBe(true);
    const reader = resumed!.getReader();
    const replay: UIMessageChunk[] = [];
    while (replay.at(-1)?.type !== "tool-input-available") replay.push((await reader.read()).value!);
    const [loadedUser] = await transport.loadMessages(id);
    expect(replay[0]).toEqual({ type: "start", messageId: `${loadedUser!.id}:reply` });
    expect(
      replay
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join(""),
    ).toBe("Working on it.");
    await fetch(`${url}/conversations/${id}/abort`, {
      method: "POST",
      headers: { authorization: "Bearer alice", "content-type": "application/json" },
      body: "{}",
    });
    const rest: UIMessageChunk[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest.push(next.value);
    expect(rest.map((c) => c.type)).toEqual(["tool-output-error", "finish-step", "abort"]);
    await live.cancel();
  });

  it("a dropped event stream resumes from the last event id: the reply is whole, nothing twice", async () => {
    const text = "one two three four five six seven eight nine ten eleven twelve";
    const { url } = await server([{ text }], { delayMs: 15 });
    const net = wire();
    const transport = transportFor(url, { fetch: net.fetch });
    const id = await transport.createChat();
    const reader = (
      await transport.sendMessages({
        trigger: "submit-message",
        chatId: id,
        messageId: undefined,
        messages: [user("u1", "Count")],
        abortSignal: undefined,
      })
    ).getReader();
    const chunks: UIMessageChunk[] = [];
    let cut = false;
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks.push(next.value);
      if (!cut && next.value.type === "text-delta") {
        net.cut();
        cut = true;
      }
    }
    expect(cut).toBe(true);
    expect(net.requests.filter((r) => r.url.endsWith("/events") && r.headers["last-event-id"]).length).toBeGreaterThan(
      0,
    );
    expect(
      chunks
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join(""),
    ).toBe(text);
  });

  it("regenerate() and an edited message run on the server's branches: the old answer is set aside", async () => {
    const { url } = await server([
      { text: "First." },
      { text: "Second." },
      { text: "After the edit." },
      { text: "Again, earlier." },
      { text: "Later." },
    ]);
    const transport = transportFor(url);
    const id = await transport.createChat();
    const said = (chunks: UIMessageChunk[]) =>
      chunks
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join("");
    const reply = (await foldChunks(await submit(transport, id, [user("u1", "Hi")])))!;
    expect(reply.parts.some((p) => p.type === "text" && p.text === "First.")).toBe(true);

    // useChat's regenerate(): the answer dropped, the user message sent again.
    const regenerated = await readAll(
      await transport.sendMessages({
        trigger: "regenerate-message",
        chatId: id,
        messageId: reply.id,
        messages: [user("u1", "Hi")],
        abortSignal: undefined,
      }),
    );
    expect(said(regenerated)).toBe("Second.");
    const loaded = await transport.loadMessages(id);
    expect(loaded.map((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(""))).toEqual([
      "Hi",
      "Second.",
    ]);

    // sendMessage({ text, messageId }): the user message replaced, answered again.
    const edited = await readAll(
      await transport.sendMessages({
        trigger: "submit-message",
        chatId: id,
        messageId: loaded[0]!.id,
        messages: [user(loaded[0]!.id, "Hello instead")],
        abortSignal: undefined,
      }),
    );
    expect(said(edited)).toBe("After the edit.");
    const afterEdit = await transport.loadMessages(id);
    expect(afterEdit[0]!.parts).toEqual([{ type: "text", text: "Hello instead" }]);

    // regenerate() of an earlier answer: its user message is edited with the same text.
    const later = await submit(transport, id, [...afterEdit, user("u2", "And now?")]);
    expect(said(later)).toBe("Again, earlier.");
    const twoTurns = await transport.loadMessages(id);
    const again = await readAll(
      await transport.sendMessages({
        trigger: "regenerate-message",
        chatId: id,
        messageId: twoTurns[1]!.id,
        messages: [twoTurns[0]!],
        abortSignal: undefined,
      }),
    );
    expect(said(again)).toBe("Later.");
    expect((await transport.loadMessages(id)).map((m) => m.role)).toEqual(["user", "assistant"]);

    // A user message the conversation does not have (the page's history is not the server's): refused, nothing runs.
    const unknown = await transport
      .sendMessages({
        trigger: "regenerate-message",
        chatId: id,
        messageId: undefined,
        messages: [twoTurns[0]!, user("x", "never sent")],
        abortSignal: undefined,
      })
      .catch((e: unknown) => e);
    expect(ChatTransportError.isInstance(unknown) && unknown.code).toBe("GLOVE_CHAT_UNKNOWN_MESSAGE");
  });

  it("bad requests fail with typed errors and leave the conversation usable", async () => {
    const { url } = await server([
      { toolCalls: [{ name: "delete_file", input: { path: "/tmp/c" } }] },
      { text: "Done." },
    ]);
    const transport = transportFor(url);
    const id = await transport.createChat();
    const send = (messages: UIMessage[], chatId = id) =>
      transport.sendMessages({
        trigger: "submit-message",
        chatId,
        messageId: undefined,
        messages,
        abortSignal: undefined,
      });
    const error = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (e: unknown) => e,
      );

    const empty = await error(send([user("u0", "  ")]));
    expect(ChatTransportError.isInstance(empty) && empty.code).toBe("GLOVE_CHAT_EMPTY_MESSAGE");
    const none = await error(send([]));
    expect(ChatTransportError.isInstance(none) && none.code).toBe("GLOVE_CHAT_NOTHING_TO_SEND");
    const missing = await error(send([user("u0", "hi")], "00000000-0000-4000-8000-000000000000"));
    expect(ServerRequestError.isInstance(missing) && missing.status).toBe(404);
    const stranger = await error(
      new GloveChatTransport({ server: url, headers: { authorization: "Bearer mallory" } }).loadMessages(id),
    );
    expect(ServerRequestError.isInstance(stranger) && stranger.status).toBe(404);

    const first = await submit(transport, id, [user("u1", "Delete it")]);
    // A new message while the permission prompt waits: the server refuses it, the prompt still waits.
    const busy = await error(send([user("u1", "Delete it"), (await foldChunks(first))!, user("u2", "Something else")]));
    expect(ServerRequestError.isInstance(busy) && busy.status).toBe(409);
    const rest = await submit(transport, id, [user("u1", "Delete it"), answered((await foldChunks(first))!, true)]);
    expect(rest).toContainEqual(expect.objectContaining({ type: "tool-output-available", output: "deleted /tmp/c" }));
  });
});
