import type { GloveServer } from "glove-server";
import { EvalError } from "../errors.js";
import { EventFeed } from "./event-feed.js";

const ORIGIN = "http://localhost";

/** A JSON answer of the in-process server: its status and body. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Calls an in-process glove-server the way a browser would (same routes, no socket). */
export class ServerClient {
  constructor(private readonly server: GloveServer) {}

  async request(method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> {
    const response = await this.server.fetch(
      new Request(ORIGIN + path, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  /** Like `request`, but anything but `expected` is an error naming the route and the server's answer. */
  async expect(
    expected: number,
    method: "GET" | "POST",
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    const answer = await this.request(method, path, body);
    if (answer.status !== expected) {
      throw new EvalError(
        "GLOVE_EVAL_RUN",
        `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`,
      );
    }
    return answer.body;
  }

  async events(conversationId: string): Promise<EventFeed> {
    const response = await this.server.fetch(new Request(`${ORIGIN}/conversations/${conversationId}/events`));
    if (response.status !== 200 || !response.body) {
      throw new EvalError("GLOVE_EVAL_RUN", `GET /conversations/${conversationId}/events answered ${response.status}.`);
    }
    return new EventFeed(response.body);
  }
}
