import { isToolUIPart, type ChatRequestOptions, type ChatTransport, type UIMessage, type UIMessageChunk } from "ai";
import { ServerRequestError } from "../errors.js";
import { ServerApi, type ServerConnectionOptions } from "../server/server-api.js";
import { newId } from "../util/ids.js";
import { branchRefusal, waitingRefusal } from "./branch-refusal.js";
import { ChatTransportError } from "./chat-transport-error.js";
import { ChunkMapper } from "./chunk-mapper.js";
import { EventFeed } from "./event-feed.js";
import { finishedStream, followTurn, type HeldQuestions, type TurnTarget } from "./follow-turn.js";
import { exchanges, replayEvents, replyInProgress, storedUserId } from "./history.js";
import { toUIMessages } from "./ui-messages.js";

/** How to reach the glove-server, and which agent new conversations get. */
export interface GloveChatTransportOptions extends ServerConnectionOptions {
  /** The agent of conversations this transport creates. Default: the server's first agent. */
  agent?: string | undefined;
}

type SendOptions = Parameters<ChatTransport<UIMessage>["sendMessages"]>[0];
type ReconnectOptions = { chatId: string; abortSignal?: AbortSignal | undefined } & ChatRequestOptions;

const CONVERSATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * useChat's transport for a glove-server: `useChat({ transport: new GloveChatTransport({ server }) })`.
 * It speaks the server's own routes — the same authentication, ownership, limits and resumable
 * event stream as glove-client's server session — and turns its events into UI message chunks.
 * The chat's id is the conversation's (`createChat`, `loadMessages`); a chat id that is not a
 * conversation gets a new one on its first message. A permission prompt is a tool approval; answering it
 * (`addToolApprovalResponse`, then a send) answers the prompt through the server's answer route,
 * so it also works after a restart. `stop()` aborts the turn on the server; `resume: true`
 * replays a reply in progress after a reload and follows it live.
 */
export class GloveChatTransport implements ChatTransport<UIMessage> {
  /** A resumed stream starts the reply in progress over from its beginning (useChat resets it). */
  readonly resumeStreamIsReplay = true;
  readonly #api: ServerApi;
  readonly #agent: string | undefined;
  /** Chat ids that are not conversation ids, with the conversation made for them. */
  readonly #conversations = new Map<string, string>();

  constructor(options: GloveChatTransportOptions) {
    this.#api = new ServerApi(options);
    this.#agent = options.agent;
  }

  /** A new conversation on the server; its id is the chat's id (`useChat({ id })`). */
  async createChat(): Promise<string> {
    return (await this.#api.createConversation(this.#agent)).id;
  }

  /** The conversation's history as useChat's initial `messages` (an unknown chat has none). */
  async loadMessages(chatId: string): Promise<UIMessage[]> {
    const id = this.#conversationOf(chatId);
    return id === undefined ? [] : toUIMessages(await this.#api.snapshot(id));
  }

  async sendMessages(options: SendOptions): Promise<ReadableStream<UIMessageChunk>> {
    const { trigger, chatId, messages, abortSignal } = options;
    const last = messages.at(-1);
    if (!last)
      throw new ChatTransportError(
        "GLOVE_CHAT_NOTHING_TO_SEND",
        "useChat sent no messages; there is nothing to answer.",
      );
    const conversationId = this.#conversationOf(chatId) ?? (await this.#createFor(chatId));
    const feed = await EventFeed.open(this.#api, conversationId, abortSignal);
    try {
      // regenerate(): useChat dropped the answer; sendMessage({ text, messageId }): it replaced a user message.
      if (trigger === "regenerate-message" || (last.role === "user" && options.messageId === last.id)) {
        return await this.#branch(feed, conversationId, messages, trigger === "regenerate-message", abortSignal);
      }
      if (last.role === "user") return await this.#submit(feed, conversationId, last, abortSignal);
      return await this.#continue(feed, conversationId, last, abortSignal);
    } catch (error) {
      feed.close();
      throw error;
    }
  }

  async reconnectToStream(options: ReconnectOptions): Promise<ReadableStream<UIMessageChunk> | null> {
    const conversationId = this.#conversationOf(options.chatId);
    if (conversationId === undefined) return null;
    const feed = await EventFeed.open(this.#api, conversationId, options.abortSignal);
    const { snapshot } = feed;
    const exchange = exchanges(snapshot.messages).at(-1);
    if (!replyInProgress(snapshot) || !exchange) {
      feed.close();
      return null;
    }
    const mapper = new ChunkMapper(`${exchange.replyId}:${newId()}`);
    const prelude = mapper.start(exchange.replyId);
    for (const event of replayEvents(snapshot, exchange.agent)) {
      const { chunks, paused } = mapper.event(event);
      prelude.push(...chunks);
      if (paused) {
        feed.close();
        return finishedStream(prelude);
      }
    }
    // Aborted from here on, the reader is the page's stop(): a reconnect superseded earlier never got a stream.
    this.#abortOnStop(conversationId, options.abortSignal);
    return followTurn(feed, mapper, { turnId: snapshot.turnId ?? undefined, running: true }, prelude);
  }

  async #submit(
    feed: EventFeed,
    conversationId: string,
    message: UIMessage,
    signal: AbortSignal | undefined,
  ): Promise<ReadableStream<UIMessageChunk>> {
    const text = textOf(message);
    signal?.throwIfAborted();
    const { turnId } = await this.#api.postMessage(conversationId, text, message.id);
    return this.#followNew(feed, conversationId, turnId, signal);
  }

  /**
   * A new answer from an earlier point: `regenerate()` of the last answer is the server's
   * regenerate; of an earlier one, and an edited message, an edit of the user message it answers
   * (the same text for a regenerate). What followed stays on its branch on the server. While the
   * reply waits for a person (or a turn runs) it is refused, nothing sent (`ChatTransportError`).
   */
  async #branch(
    feed: EventFeed,
    conversationId: string,
    messages: UIMessage[],
    regenerate: boolean,
    signal: AbortSignal | undefined,
  ): Promise<ReadableStream<UIMessageChunk>> {
    const waiting = waitingRefusal(feed.snapshot);
    if (waiting) throw waiting;
    const users = messages.filter((message) => message.role === "user");
    const target = users.at(-1);
    if (!target)
      throw new ChatTransportError("GLOVE_CHAT_NOTHING_TO_SEND", "There is no user message to answer again.");
    const text = textOf(target);
    const stored = storedUserId(feed.snapshot, target.id, users.length - 1);
    if (stored === undefined)
      throw new ChatTransportError(
        "GLOVE_CHAT_UNKNOWN_MESSAGE",
        `Message "${target.id}" is not in the conversation's active branch; load the chat's messages again.`,
      );
    signal?.throwIfAborted();
    const last = stored === storedUserId(feed.snapshot, undefined, -1);
    const { turnId } = await (
      regenerate && last ? this.#api.regenerate(conversationId) : this.#api.editMessage(conversationId, stored, text)
    ).catch((error: unknown) => {
      throw branchRefusal(error);
    });
    return this.#followNew(feed, conversationId, turnId, signal);
  }

  /** The reply of a turn just started, as a new assistant message. */
  #followNew(
    feed: EventFeed,
    conversationId: string,
    turnId: string,
    signal: AbortSignal | undefined,
  ): ReadableStream<UIMessageChunk> {
    this.#abortOnStop(conversationId, signal);
    const mapper = new ChunkMapper(turnId);
    return followTurn(feed, mapper, { turnId, running: false }, mapper.start());
  }

  /**
   * The last message is the assistant's: useChat sends again after approvals were answered
   * (`addToolApprovalResponse`). The answers go to the server's answer route; the reply goes on
   * in the same message.
   */
  async #continue(
    feed: EventFeed,
    conversationId: string,
    message: UIMessage,
    signal: AbortSignal | undefined,
  ): Promise<ReadableStream<UIMessageChunk>> {
    const tools = message.parts.filter(isToolUIPart);
    const mapper = new ChunkMapper(
      `${message.id}:${newId()}`,
      tools.map((part) => part.toolCallId),
    );
    let answered = false;
    const answeredNow = new Set<string>();
    const running = new Set<string>();
    for (const part of tools) {
      if (part.state !== "approval-responded") continue;
      if (!part.approval.approved) mapper.declined(part.toolCallId);
      answeredNow.add(part.approval.id);
      try {
        await this.#api.answerSlot(conversationId, part.approval.id, { resolve: part.approval.approved });
        answered = true;
        running.add(part.toolCallId);
      } catch (error) {
        // Answered already (another tab, or a retry): the first answer stands and the turn goes on.
        if (!(ServerRequestError.isInstance(error) && error.status === 409)) throw error;
      }
    }
    const { snapshot } = feed;
    const waiting = snapshot.slots.filter(
      (slot) => slot.mode === "wait" && slot.status === "pending" && !answeredNow.has(slot.id),
    );
    // Other questions of the turn, pushed while the page was not reading: shown once the answered calls ran
    // (at once when the turn is not in memory: a stored turn resumes only when its last question is answered).
    const held: HeldQuestions | undefined =
      waiting.length === 0
        ? undefined
        : { calls: snapshot.busy ? running : new Set(), release: () => mapper.questions(waiting) };
    // A turn still in memory goes on; one that left it waiting starts again once answered.
    const target: TurnTarget | undefined = snapshot.busy
      ? { turnId: snapshot.turnId ?? undefined, running: true }
      : answered || held
        ? { turnId: undefined, running: false }
        : undefined;
    if (!target) {
      feed.close();
      return finishedStream([...mapper.start(), ...mapper.end("done")]);
    }
    this.#abortOnStop(conversationId, signal);
    return followTurn(feed, mapper, target, mapper.start(), held);
  }

  #abortOnStop(conversationId: string, signal: AbortSignal | undefined): void {
    signal?.addEventListener("abort", () => void this.#api.abort(conversationId).catch(() => undefined), {
      once: true,
    });
  }

  #conversationOf(chatId: string): string | undefined {
    return this.#conversations.get(chatId) ?? (CONVERSATION_ID.test(chatId) ? chatId : undefined);
  }

  async #createFor(chatId: string): Promise<string> {
    const id = await this.createChat();
    this.#conversations.set(chatId, id);
    return id;
  }
}

/** What a user message says to the agent: its text parts (files are not sent). */
function textOf(message: UIMessage): string {
  const text = message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  if (text.trim() === "")
    throw new ChatTransportError(
      "GLOVE_CHAT_EMPTY_MESSAGE",
      "The message has no text; a Glove agent is sent text (files are not supported by this transport).",
    );
  return text;
}
