/**
 * The baseline: a minimal node:http server with the same routes the bench client uses. Per
 * message it writes the given events as SSE frames (id/event/data, `JSON.stringify` and one
 * `res.write` per frame), `batch` frames per turn of the event loop (`setImmediate`, a timer, or
 * only a microtask): the same frames glove-server sends, with nothing behind them (no agent loop, no
 * store, no replay log).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { listenBench } from "./bench-listen.js";
import { bearer } from "./fixtures.js";

/** One event as a client receives it (type and parsed data). */
export interface WireEvent {
  type: string;
  data: unknown;
}

export interface BareConfig {
  /** The events one message produces, in order. */
  events: WireEvent[];
  /** Frames between two turns of the event loop (each frame is its own `res.write`; a batch leaves as one socket write). */
  batch: number;
  /**
   * Between batches: a `setImmediate` (default; other connections get a turn), only a microtask,
   * or a timer of that many ms (to pace frames like a ScriptedModel with `delayMs`).
   */
  yield?: "immediate" | "microtask" | number;
}

export interface RunningBare {
  url: string;
  configure(config: Partial<BareConfig>): void;
  readonly liveConversations: number;
  close(): Promise<void>;
}

/** Emits one event to the conversation's streams. */
export type EmitEvent = (type: string, data: unknown) => void;

/**
 * Instead of replaying `events`: makes each conversation's turn function, which produces its own
 * events for a message (the peers bench's bare loop calls a model).
 */
export type BareTurns = () => (text: string, emit: EmitEvent) => Promise<void>;

interface BareConversation {
  lastId: number;
  streams: Set<ServerResponse>;
  turn?: ((text: string, emit: EmitEvent) => Promise<void>) | undefined;
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

export async function startBareTarget(initial: BareConfig, turns?: BareTurns): Promise<RunningBare> {
  const config: BareConfig = { ...initial };
  const conversations = new Map<string, BareConversation>();

  async function stream(conversation: BareConversation): Promise<void> {
    const { events, batch } = config;
    let i = 0;
    while (i < events.length) {
      const end = Math.min(events.length, i + batch);
      for (; i < end; i++) {
        const event = events[i]!;
        const frame = `id: ${++conversation.lastId}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
        for (const res of conversation.streams) if (!res.write(frame)) await drained(res);
      }
      // node:http corks a socket for the rest of the tick: the batch leaves as one socket write.
      if (config.yield === "microtask") await Promise.resolve();
      else if (typeof config.yield === "number") await sleep(config.yield);
      else await nextTurn();
    }
  }

  /** A turn that makes its own events: each is one frame and one `res.write`, as it comes. */
  async function produce(conversation: BareConversation, text: string): Promise<void> {
    const emit: EmitEvent = (type, data) => {
      const frame = `id: ${++conversation.lastId}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const res of conversation.streams) res.write(frame);
    };
    emit("turn_start", { text });
    try {
      await conversation.turn!(text, emit);
      emit("turn_end", { status: "done" });
    } catch (error) {
      emit("turn_end", { status: "error", message: String(error) });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!bearer(req.headers.authorization)) return json(res, 401, { error: { code: "GLOVE_UNAUTHENTICATED" } });
    const parts = (req.url ?? "/").split("?")[0]!.split("/").filter(Boolean);
    if (parts[0] !== "conversations") return json(res, 404, { error: { code: "GLOVE_NOT_FOUND" } });
    if (parts.length === 1 && req.method === "POST") {
      await readBody(req);
      const id = randomUUID();
      conversations.set(id, { lastId: 0, streams: new Set(), turn: turns?.() });
      return json(res, 201, { id, agent: "stream" });
    }
    const conversation = conversations.get(parts[1] ?? "");
    if (!conversation) return json(res, 404, { error: { code: "GLOVE_NOT_FOUND" } });
    if (parts.length === 2 && req.method === "DELETE") {
      conversations.delete(parts[1]!);
      for (const stream of conversation.streams) stream.end();
      res.writeHead(204).end();
      return;
    }
    if (parts[2] === "events" && req.method === "GET") {
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      const snapshot = {
        id: parts[1],
        agent: "stream",
        messages: [],
        slots: [],
        tasks: [],
        busy: false,
        lastEventId: conversation.lastId,
      };
      res.write(`retry: 1000\n\nid: ${conversation.lastId}\nevent: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`);
      conversation.streams.add(res);
      res.on("close", () => conversation.streams.delete(res));
      return;
    }
    if (parts[2] === "messages" && req.method === "POST") {
      const body = JSON.parse(await readBody(req)) as { text?: unknown };
      if (typeof body.text !== "string") return json(res, 400, { error: { code: "GLOVE_BAD_REQUEST" } });
      json(res, 202, { turnId: randomUUID(), duplicate: false });
      if (conversation.turn) void produce(conversation, body.text);
      else void stream(conversation);
      return;
    }
    return json(res, 405, { error: { code: "GLOVE_METHOD_NOT_ALLOWED" } });
  }

  const listening = await listenBench(handle);
  return {
    url: listening.url,
    configure(changes) {
      Object.assign(config, changes);
    },
    get liveConversations() {
      return conversations.size;
    },
    close: () => listening.close(),
  };
}
