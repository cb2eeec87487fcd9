import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { Glove, type PromptRequest, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { createGloveServer, sqliteStorage, type GloveServer, type ServerStorage } from "glove-server";

/** What recording turn traces costs a turn: the same turns on a server that traces and one that does not. */
export interface TraceOverheadResult {
  turns: number;
  /** Median milliseconds per turn over the rounds. */
  tracedMs: number;
  untracedMs: number;
  ratio: number;
  /** Traces the traced server stored (one per turn, bounded per conversation). */
  tracesStored: number;
  /** Traces in the untraced server's file: none. */
  untracedStored: number;
}

const ANSWER = "word ".repeat(400);

/** A turn: a tool call, then a 2 000-character answer streamed in 8-character deltas (250 events). */
function agent() {
  const turn = (request: PromptRequest): ScriptedTurn =>
    request.messages.at(-1)?.tool_results?.length
      ? { text: ANSWER, tokens_in: 900, tokens_out: 400 }
      : { toolCalls: [{ name: "lookup", input: { q: "menu" } }], tokens_in: 800, tokens_out: 20 };
  return ({ store }: { store: StoreAdapter }) =>
    new Glove({
      store,
      model: new ScriptedModel([], { record: false, chunkSize: 8, fallback: turn }),
      systemPrompt: "Answer.",
    }).fold({
      name: "lookup",
      description: "Looks something up.",
      inputSchema: z.object({ q: z.string() }),
      do: async (input) => `found ${input.q}`,
    });
}

function server(store: ServerStorage): GloveServer {
  return createGloveServer({
    agents: { assistant: agent() },
    authenticate: () => ({ id: "bench" }),
    store,
    limits: { turnsPerMinute: Infinity },
  });
}

async function call(s: GloveServer, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  return (await (await s.fetch(new Request(`http://127.0.0.1${path}`, init))).json()) as Record<string, unknown>;
}

/** A conversation and its event stream: turns are sent one after another, each awaited on its turn_end. */
async function conversation(
  s: GloveServer,
): Promise<{ runTurns(turns: number): Promise<number>; close(): Promise<void> }> {
  const id = String((await call(s, "/conversations", {})).id);
  const events = await s.fetch(new Request(`http://127.0.0.1/conversations/${id}/events`));
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const turnEnd = async () => {
    for (;;) {
      const at = buffered.indexOf("event: turn_end");
      if (at >= 0) {
        buffered = buffered.slice(at + 15);
        return;
      }
      buffered = buffered.slice(-32) + ((await reader.read()).value ?? "");
    }
  };
  let sent = 0;
  return {
    /** Milliseconds per turn. */
    async runTurns(turns) {
      const start = performance.now();
      for (let i = 0; i < turns; i++) {
        await call(s, `/conversations/${id}/messages`, { text: `question ${sent++}` });
        await turnEnd();
      }
      return (performance.now() - start) / turns;
    },
    close: () => reader.cancel(),
  };
}

/** `rounds` rounds of `turns` turns on each server, alternated (the order flips every round); medians. */
export async function traceOverhead(turns: number, rounds: number): Promise<TraceOverheadResult> {
  const dir = mkdtempSync(join(tmpdir(), "glove-bench-trace-overhead-"));
  const traced = sqliteStorage({ path: join(dir, "traced.db") });
  const plain = sqliteStorage({ path: join(dir, "plain.db") });
  // The same storage without `inspect`: the server records no traces.
  const untraced: ServerStorage = {
    catalog: plain.catalog,
    store: plain.store,
    ...(plain.close ? { close: plain.close } : {}),
  };
  const servers = { traced: server(traced), untraced: server(untraced) };
  const chats = { traced: await conversation(servers.traced), untraced: await conversation(servers.untraced) };
  const times = { traced: [] as number[], untraced: [] as number[] };
  await chats.traced.runTurns(5);
  await chats.untraced.runTurns(5);
  for (let r = 0; r < rounds; r++) {
    for (const kind of r % 2 === 0 ? (["traced", "untraced"] as const) : (["untraced", "traced"] as const))
      times[kind].push(await chats[kind].runTurns(turns));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [tracedList, untracedList] = await Promise.all([
    traced.inspect!.listConversations({ limit: 1 }),
    plain.inspect!.listConversations({ limit: 1 }),
  ]);
  const tracesStored = (await traced.inspect!.traces.list(tracedList.items[0]!.id, { limit: 500 })).length;
  const untracedStored = (await plain.inspect!.traces.list(untracedList.items[0]!.id, { limit: 500 })).length;
  await Promise.all([chats.traced.close(), chats.untraced.close()]);
  await servers.traced.close();
  await servers.untraced.close();
  const tracedMs = median(times.traced);
  const untracedMs = median(times.untraced);
  return {
    turns: 5 + turns * rounds,
    tracedMs,
    untracedMs,
    ratio: tracedMs / untracedMs,
    tracesStored,
    untracedStored,
  };
}
