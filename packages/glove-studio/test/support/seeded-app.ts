/**
 * A glove-server app with real stored conversations (turns run through its HTTP API on SQLite or
 * PostgreSQL): the data every studio test looks at.
 */
import { createGloveServer, type GloveServer, type GloveServerOptions, type ServerStorage } from "glove-server";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";
import { Gate, studioAgent } from "./studio-agent.js";

export interface SeededApp {
  server: GloveServer;
  storage: ServerStorage;
  url: string;
  gate: { current: Gate };
  /** Calls the app's API as `user` (a bearer token that is the principal id). */
  api(
    path: string,
    init?: { method?: string; body?: unknown; user?: string },
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A new conversation of `user` with `agent`, each message sent once the previous turn ended. */
  converse(user: string, agent: string, messages: string[]): Promise<string>;
  waitIdle(id: string, user: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export const authenticate = (request: Request) => {
  const header = request.headers.get("authorization");
  return header?.startsWith("Bearer ") ? { id: header.slice(7) } : null;
};

export async function startApp(storage: ServerStorage, extra: Partial<GloveServerOptions> = {}): Promise<SeededApp> {
  const gate = { current: new Gate() };
  const errors: string[] = [];
  const agent = studioAgent(gate);
  const server = createGloveServer({
    agents: { assistant: agent, researcher: agent },
    authenticate,
    store: storage,
    limits: { turnsPerMinute: Infinity, conversationsPerMinute: Infinity },
    // The "fail" conversation's model error is expected; anything else fails the test that looks.
    log: (message) => void errors.push(message),
    ...extra,
  });
  const listening = await server.listen();
  const url = listening.url;
  const api: SeededApp["api"] = async (path, init = {}) => {
    const response = await fetch(url + path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: { authorization: `Bearer ${init.user ?? "alice"}`, "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const waitIdle = async (id: string, user: string) => {
    const until = Date.now() + PROMPT_WAIT_MS;
    for (;;) {
      const { body } = await api(`/conversations/${id}`, { user });
      const slots = (body.slots ?? []) as Array<{ mode: string; status: string }>;
      const waiting = slots.some((s) => s.mode === "wait" && (s.status === "pending" || s.status === "shown"));
      if (body.busy === false || waiting) return body;
      if (Date.now() > until) throw new Error(`conversation ${id} still busy: ${JSON.stringify(body).slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const converse: SeededApp["converse"] = async (user, agentName, messages) => {
    const created = await api("/conversations", { body: { agent: agentName }, user });
    const id = created.body.id as string;
    for (const text of messages) {
      const sent = await api(`/conversations/${id}/messages`, { body: { text }, user });
      if (sent.status !== 202) throw new Error(`message refused: ${JSON.stringify(sent.body)}`);
      await waitIdle(id, user);
    }
    return id;
  };
  return { server, storage, url, gate, api, converse, waitIdle, close: () => server.close() };
}

/** The conversations the tests look for, stored through real turns. */
export interface Seeded {
  weather: string;
  hostile: string;
  waiting: string;
  failed: string;
  bobs: string;
  delegated: string;
}

export async function seed(app: SeededApp): Promise<Seeded> {
  const weather = await app.converse("alice", "assistant", ["weather Lisbon", "weather Oslo"]);
  const hostile = await app.converse("alice", "assistant", [`hostile ${"<b>"}`]);
  const waiting = await app.converse("alice", "researcher", ["ask What name goes on the booking?"]);
  const failed = await app.converse("alice", "assistant", ["fail now"]);
  const bobs = await app.converse("bob", "researcher", ["hello from bob"]);
  const delegated = await app.converse("bob", "assistant", ["delegate Nairobi"]);
  return { weather, hostile, waiting, failed, bobs, delegated };
}
