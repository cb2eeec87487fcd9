/**
 * An edit or a regenerate while the reply waits for a person (or a turn runs): a ChatTransportError
 * that says what to do, nothing sent, the conversation as it was — against a real glove-server.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { UIMessage } from "ai";
import { ChatTransportError, GloveChatTransport, ServerRequestError } from "glove-client/ai-sdk";
import { branchRefusal } from "../../src/ai-sdk/branch-refusal.js";
import { foldChunks } from "../../src/ai-sdk/ui-messages.js";
import { readAll, user } from "../support/ui-chat.js";
import { serversClosedBy, wire } from "../support/server.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const server = serversClosedBy(cleanups);

const textOf = (message: UIMessage) => message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");

/** What useChat sends for `sendMessage({ text, messageId })`: the history cut after the edited message, which has the new text. */
const edit = (transport: GloveChatTransport, chatId: string, before: UIMessage[], message: UIMessage, text: string) =>
  transport.sendMessages({
    trigger: "submit-message",
    chatId,
    messageId: message.id,
    messages: [...before, { ...message, parts: [{ type: "text", text }] }],
    abortSignal: undefined,
  });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("GloveChatTransport refuses an edit or a regenerate the server cannot take", () => {
  it("while an approval waits: refused before anything is sent, the history as it was; answered, the edit runs", async () => {
    const { url } = await server([
      { text: "Asking.", toolCalls: [{ name: "delete_file", input: { path: "/tmp/r" } }] },
      { text: "Deleted." },
      { text: "Edited answer." },
    ]);
    const net = wire();
    const transport = new GloveChatTransport({
      server: url,
      headers: { authorization: "Bearer alice" },
      fetch: net.fetch,
    });
    const id = await transport.createChat();
    await readAll(
      await transport.sendMessages({
        trigger: "submit-message",
        chatId: id,
        messageId: undefined,
        messages: [user("u1", "Delete it")],
        abortSignal: undefined,
      }),
    );
    const history = await transport.loadMessages(id);
    const [question, reply] = history;
    expect(reply!.parts.find((p) => p.type === "tool-delete_file")).toMatchObject({ state: "approval-requested" });
    const posted = () => net.requests.filter((r) => r.method === "POST").length;
    const postsBefore = posted();

    const edited = await refusal(edit(transport, id, [], question!, "Keep it instead"));
    expect(ChatTransportError.isInstance(edited) && edited.code).toBe("GLOVE_CHAT_WAITING_FOR_ANSWER");
    expect((edited as Error).message).toContain("the approval of delete_file: approve or deny it");
    expect((edited as Error).message).toContain("transport.loadMessages");
    // regenerate() of the waiting reply: the same refusal.
    const regenerated = await refusal(
      transport.sendMessages({
        trigger: "regenerate-message",
        chatId: id,
        messageId: reply!.id,
        messages: [question!],
        abortSignal: undefined,
      }),
    );
    expect(ChatTransportError.isInstance(regenerated) && regenerated.code).toBe("GLOVE_CHAT_WAITING_FOR_ANSWER");
    expect(posted()).toBe(postsBefore);
    // What the page shows again after the refusal: the history it had, the approval still waiting.
    expect(await transport.loadMessages(id)).toEqual(history);

    const answered: UIMessage = {
      ...reply!,
      parts: reply!.parts.map((p) =>
        p.type === "tool-delete_file" && p.state === "approval-requested"
          ? { ...p, state: "approval-responded", approval: { ...p.approval, approved: true } }
          : p,
      ) as UIMessage["parts"],
    };
    const rest = await readAll(
      await transport.sendMessages({
        trigger: "submit-message",
        chatId: id,
        messageId: reply!.id,
        messages: [question!, answered],
        abortSignal: undefined,
      }),
    );
    expect(rest).toContainEqual(expect.objectContaining({ type: "tool-output-available", output: "deleted /tmp/r" }));
    const after = await readAll(await edit(transport, id, [], question!, "Keep it instead"));
    expect(textOf((await foldChunks(after))!)).toBe("Edited answer.");
    expect((await transport.loadMessages(id)).map(textOf)).toEqual(["Keep it instead", "Edited answer."]);
  });

  it("while a turn runs: the server's 409 becomes GLOVE_CHAT_BUSY, which says to stop the turn", async () => {
    const { url } = await server([{ text: "Working.", toolCalls: [{ name: "slow_job", input: {} }] }]);
    const transport = new GloveChatTransport({ server: url, headers: { authorization: "Bearer alice" } });
    const id = await transport.createChat();
    const controller = new AbortController();
    const reader = (
      await transport.sendMessages({
        trigger: "submit-message",
        chatId: id,
        messageId: undefined,
        messages: [user("u1", "Go")],
        abortSignal: controller.signal,
      })
    ).getReader();
    for (let next = await reader.read(); next.value?.type !== "tool-input-available"; next = await reader.read());
    const [question] = await transport.loadMessages(id);
    const busy = await refusal(edit(transport, id, [], question!, "Something else"));
    expect(ChatTransportError.isInstance(busy) && busy.code).toBe("GLOVE_CHAT_BUSY");
    expect((busy as Error).message).toContain("stop it (stop())");
    expect(
      ServerRequestError.isInstance((busy as Error).cause) &&
        (busy as Error & { cause: ServerRequestError }).cause.code,
    ).toBe("GLOVE_BUSY");
    controller.abort();
    expect((await reader.read()).done).toBe(true);
  });

  it("maps only the server's waiting and busy 409s; other errors pass as they are", () => {
    const waiting = branchRefusal(new ServerRequestError(409, "GLOVE_WAITING_FOR_ANSWER", "waits"));
    expect(ChatTransportError.isInstance(waiting) && waiting.code).toBe("GLOVE_CHAT_WAITING_FOR_ANSWER");
    expect((waiting as Error).message).toContain("approve or deny it");
    for (const other of [
      new ServerRequestError(409, "GLOVE_BRANCH_CONFLICT", "conflict"),
      new ServerRequestError(404, "GLOVE_NOT_FOUND", "missing"),
      new TypeError("fetch failed"),
    ])
      expect(branchRefusal(other)).toBe(other);
  });
});
