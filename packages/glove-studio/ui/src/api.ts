/** The studio's JSON API, relative to the page (so the same build works standalone and mounted). */
import type { Message } from "glove-core";
import type { ConversationPage, MessagePage, RecordedCall, ResolvedRequest, TurnTrace } from "glove-server";
import type { ConversationDetail, ForkResult, StudioInfo } from "../../src/types/studio.js";
import type { StudioAuditEntry } from "../../src/types/audit.js";

export type {
  ConversationDetail,
  ForkResult,
  StudioAuditEntry,
  ConversationPage,
  Message,
  MessagePage,
  RecordedCall,
  ResolvedRequest,
  StudioInfo,
  TurnTrace,
};

/** An API error as the page shows it: the server's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(`api/${path}`, {
    ...init,
    headers: { "content-type": "application/json", ...init?.headers },
  });
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(response.status, error?.code ?? "HTTP_ERROR", error?.message ?? `HTTP ${response.status}`);
  }
  return body as T;
}

const id = (value: string) => encodeURIComponent(value);

export const api = {
  info: () => request<StudioInfo>("info"),
  conversations: (query: URLSearchParams) => request<ConversationPage>(`conversations?${query}`),
  conversation: (conversationId: string) => request<ConversationDetail>(`conversations/${id(conversationId)}`),
  messages: (conversationId: string, offset: number, limit: number) =>
    request<MessagePage>(`conversations/${id(conversationId)}/messages?offset=${offset}&limit=${limit}`),
  find: (conversationId: string, text: string) =>
    request<{ matches: number[]; truncated: boolean }>(
      `conversations/${id(conversationId)}/find?text=${encodeURIComponent(text)}`,
    ),
  trace: (conversationId: string, turnId: string) =>
    request<TurnTrace>(`conversations/${id(conversationId)}/traces/${id(turnId)}`),
  modelCall: (conversationId: string, turnId: string, callId: string) =>
    request<ResolvedRequest>(`conversations/${id(conversationId)}/traces/${id(turnId)}/calls/${id(callId)}`),
  answer: (conversationId: string, slotId: string, body: { resolve: unknown } | { reject: unknown }) =>
    request<{ status: string }>(`conversations/${id(conversationId)}/questions/${id(slotId)}`, {
      method: "POST",
      body: JSON.stringify(body),
    }),
  abort: (conversationId: string) =>
    request<{ aborted: boolean }>(`conversations/${id(conversationId)}/abort`, { method: "POST", body: "{}" }),
  send: (conversationId: string, text: string) =>
    request<{ turnId: string }>(`conversations/${id(conversationId)}/messages`, {
      method: "POST",
      body: JSON.stringify({ text }),
    }),
  regenerate: (conversationId: string) =>
    request<{ turnId: string }>(`conversations/${id(conversationId)}/regenerate`, { method: "POST", body: "{}" }),
  edit: (conversationId: string, messageId: string, text: string) =>
    request<{ turnId: string }>(`conversations/${id(conversationId)}/messages/${id(messageId)}/edit`, {
      method: "POST",
      body: JSON.stringify({ text }),
    }),
  switchBranch: (conversationId: string, messageId: string) =>
    request<unknown>(`conversations/${id(conversationId)}/branches/${id(messageId)}`, { method: "POST", body: "{}" }),
  fork: (conversationId: string, at: number, variant: string | undefined) =>
    request<ForkResult>(`conversations/${id(conversationId)}/fork`, {
      method: "POST",
      body: JSON.stringify(variant === undefined ? { at } : { at, variant }),
    }),
  audit: (conversationId: string) =>
    request<{ entries: StudioAuditEntry[] }>(`audit?conversation=${encodeURIComponent(conversationId)}&limit=50`),
  async fixture(conversationId: string): Promise<string> {
    const response = await fetch(`api/conversations/${id(conversationId)}/fixture`);
    if (!response.ok) throw new ApiError(response.status, "HTTP_ERROR", `HTTP ${response.status}`);
    return response.text();
  },
};
