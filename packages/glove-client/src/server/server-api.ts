import { ServerRequestError } from "../errors.js";
import type { SlotIssue } from "../types/state.js";
import type { ConversationSnapshot } from "../types/wire.js";

/** Request headers, or a function giving them for each request (e.g. a fresh token). */
export type HeadersOption = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** How to reach a glove-server. */
export interface ServerConnectionOptions {
  /** The server's base URL, e.g. "/api/glove" (its `basePath`) or "https://agents.example.com". */
  server: string;
  /** Sent with every request (the credentials its `authenticate` checks). */
  headers?: HeadersOption | undefined;
  /** fetch's credentials mode. Default "same-origin" (cookies for your own origin). */
  credentials?: RequestCredentials | undefined;
  /** fetch to use (default: globalThis.fetch, looked up per request). */
  fetch?: typeof fetch | undefined;
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; issues?: unknown };
}

function issuesOf(value: unknown): SlotIssue[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter((i): i is SlotIssue => typeof i?.path === "string" && typeof i?.message === "string")
    .map((i) => ({ path: i.path, message: i.message }));
}

/** glove-server's routes (see its README), each answer checked; failures are ServerRequestErrors. */
export class ServerApi {
  readonly base: string;

  constructor(private readonly options: ServerConnectionOptions) {
    this.base = options.server.replace(/\/+$/, "");
  }

  url(path: string): string {
    return this.base + path;
  }

  async headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const own = typeof this.options.headers === "function" ? await this.options.headers() : this.options.headers;
    return { ...own, ...extra };
  }

  /** Any request; a network failure becomes status 0 (`GLOVE_UNREACHABLE`). */
  async fetch(path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Response> {
    const doFetch = this.options.fetch ?? globalThis.fetch;
    try {
      return await doFetch(this.url(path), {
        credentials: this.options.credentials ?? "same-origin",
        ...init,
        headers: await this.headers(init.headers),
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ServerRequestError(
        0,
        "GLOVE_UNREACHABLE",
        `Could not reach the Glove server at ${this.base || "/"}: ${error instanceof Error ? error.message : String(error)}.`,
        undefined,
        error,
      );
    }
  }

  async #json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit & { headers: Record<string, string> } = { method, headers: { accept: "application/json" } };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await this.fetch(path, init);
    const text = await response.text().catch(() => "");
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) throw ServerApi.errorOf(response.status, parsed);
    return parsed as T;
  }

  static errorOf(status: number, body: unknown): ServerRequestError {
    const error = (body as ErrorBody | undefined)?.error;
    const code = typeof error?.code === "string" ? error.code : `GLOVE_HTTP_${status}`;
    const message = typeof error?.message === "string" ? error.message : `The Glove server answered ${status}.`;
    return new ServerRequestError(status, code, message, issuesOf(error?.issues));
  }

  createConversation(agent?: string): Promise<{ id: string; agent: string }> {
    return this.#json("POST", "/conversations", agent ? { agent } : {});
  }

  snapshot(conversationId: string): Promise<ConversationSnapshot> {
    return this.#json("GET", `/conversations/${encodeURIComponent(conversationId)}`);
  }

  postMessage(
    conversationId: string,
    text: string,
    clientMessageId: string,
  ): Promise<{ turnId: string; duplicate?: boolean }> {
    return this.#json("POST", `/conversations/${encodeURIComponent(conversationId)}/messages`, {
      text,
      clientMessageId,
    });
  }

  answerSlot(
    conversationId: string,
    slotId: string,
    answer: { resolve: unknown } | { reject: string },
  ): Promise<{ slotId: string; status: string }> {
    return this.#json(
      "POST",
      `/conversations/${encodeURIComponent(conversationId)}/slots/${encodeURIComponent(slotId)}`,
      answer,
    );
  }

  abort(conversationId: string): Promise<{ aborted: boolean; turnId?: string; status?: string }> {
    return this.#json("POST", `/conversations/${encodeURIComponent(conversationId)}/abort`, {});
  }

  regenerate(conversationId: string): Promise<{ turnId: string }> {
    return this.#json("POST", `/conversations/${encodeURIComponent(conversationId)}/regenerate`, {});
  }

  editMessage(conversationId: string, messageId: string, text: string): Promise<{ turnId: string }> {
    return this.#json(
      "POST",
      `/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/edit`,
      { text },
    );
  }

  switchBranch(conversationId: string, messageId: string): Promise<unknown> {
    return this.#json(
      "POST",
      `/conversations/${encodeURIComponent(conversationId)}/branches/${encodeURIComponent(messageId)}`,
      {},
    );
  }

  /** Opens the event stream, resuming after `lastEventId` when given. */
  openEvents(conversationId: string, lastEventId: number | undefined, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
    return this.fetch(`/conversations/${encodeURIComponent(conversationId)}/events`, {
      method: "GET",
      headers,
      signal,
      cache: "no-store",
    });
  }
}
