import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { IGloveRunnable } from "glove-core";
import { bistroAgent } from "glove-example-web-chat/agent";
import { memoryStorage, TurnTracing } from "glove-server";

/** The request log at one conversation length: what a turn stores of its requests versus of its messages. */
export interface RequestLogPoint {
  /** Messages in the conversation when the measured turns started. */
  messages: number;
  /** Characters of the messages the measured turns stored (JSON). */
  storedMessageChars: number;
  /** Characters of their request log (the traces' `calls`, JSON). */
  requestLogChars: number;
  /** requestLogChars / storedMessageChars. */
  ratio: number;
  /** What storing every request whole would cost instead: the bodies sent, / storedMessageChars. */
  wholeRequestsRatio: number;
}

/** Turns measured at each length: a turn that shows the menu (a tool call, then the answer), then two plain ones. */
const MEASURED_TURNS = 3;

/**
 * The web demo's agent (examples/web-chat: its system prompt and tools) on its real
 * OpenAI-compatible adapter, talking to a provider on 127.0.0.1, with glove-server's turn
 * tracing recording its calls into memory storage. The conversation grows to each length in
 * `lengths`; there the next turns are measured.
 */
export async function requestLogGrowth(lengths: readonly number[]): Promise<RequestLogPoint[]> {
  const provider = await fakeProvider();
  const storage = memoryStorage();
  const id = "bistro";
  const agent = bistroAgent({
    source: { kind: "live", provider: "openai" },
    env: { OPENAI_API_KEY: "sk-bench-not-a-key", GLOVE_BASE_URL: `${provider.url}/v1`, GLOVE_MODEL: "gpt-4o-mini" },
    offlineDelayMs: 0,
    bookings: new Map(),
  });
  const glove: IGloveRunnable = agent({ store: await storage.store(id) }).build();
  const tracing = new TurnTracing(
    storage.inspect!.traces,
    id,
    () => "gpt-4o-mini",
    () => undefined,
  );
  let turn: string | undefined;
  glove.addSubscriber({ record: (...event) => tracing.observe(turn, ...event) });
  tracing.attach(glove, () => turn);
  const store = await storage.store(id);
  let turns = 0;
  const runTurn = async (menu: boolean) => {
    turn = `turn-${String(++turns).padStart(5, "0")}`;
    provider.menuNext = menu;
    await glove.processRequest(`Question ${turns}: what would you recommend for a table of four tonight?`);
    await tracing.end(turn, "done");
    return turn;
  };
  const points: RequestLogPoint[] = [];
  for (const length of lengths) {
    while ((await store.getMessages()).length < length) await runTurn(turns % 3 === 0);
    const before = await store.getMessages();
    const bodyChars = provider.bodyChars;
    let requestLogChars = 0;
    for (let i = 0; i < MEASURED_TURNS; i++) {
      const trace = await storage.inspect!.traces.get(id, await runTurn(i === 0));
      requestLogChars += JSON.stringify(trace?.calls ?? []).length;
    }
    const storedMessageChars = JSON.stringify((await store.getMessages()).slice(before.length)).length;
    points.push({
      messages: before.length,
      storedMessageChars,
      requestLogChars,
      ratio: requestLogChars / storedMessageChars,
      wholeRequestsRatio: (provider.bodyChars - bodyChars) / storedMessageChars,
    });
  }
  await provider.close();
  return points;
}

interface FakeProvider {
  url: string;
  /** The next user turn is answered with a show_menu call. */
  menuNext: boolean;
  /** Characters of every request body received. */
  bodyChars: number;
  close(): Promise<void>;
}

const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) =>
  frame({ choices: [{ index: 0, delta: d, finish_reason: finish }] });

/** An OpenAI-compatible provider on 127.0.0.1: a show_menu call when asked, else a short streamed answer. */
async function fakeProvider(): Promise<FakeProvider> {
  const state: FakeProvider = { url: "", menuNext: false, bodyChars: 0, close: async () => undefined };
  const answer = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    void req;
    state.bodyChars += raw.length;
    const messages = (JSON.parse(raw) as { messages: Array<{ role: string }> }).messages;
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (state.menuNext && messages.at(-1)?.role === "user") {
      state.menuNext = false;
      const call = {
        index: 0,
        id: `call_${state.bodyChars}`,
        type: "function",
        function: { name: "show_menu", arguments: "{}" },
      };
      res.write(delta({ tool_calls: [call] }));
      res.write(delta({}, "tool_calls"));
    } else {
      for (const word of "The duck confit and a bottle of the house red would suit four nicely tonight.".split(" "))
        res.write(delta({ content: `${word} ` }));
      res.write(delta({}, "stop"));
    }
    res.write(frame({ choices: [], usage: { prompt_tokens: Math.round(raw.length / 4), completion_tokens: 20 } }));
    res.end("data: [DONE]\n\n");
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => answer(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
