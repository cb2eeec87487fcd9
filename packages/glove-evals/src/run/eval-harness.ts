import { performance } from "node:perf_hooks";
import type { Message, WireSlot } from "glove-core";
import { createGloveServer, type AgentFactory, type GloveServer, type ServerStorage } from "glove-server";
import { itemTurns, type EvalItem } from "../dataset/item-schema.js";
import { applyOverride, type AgentOverride } from "./agent-override.js";
import type { EventFeed } from "./event-feed.js";
import { ModelCallLog, recordingModel } from "./recording-model.js";
import { finalAnswer, RunState, toolCallsOf } from "./run-state.js";
import type { ItemRun, RunStatus } from "./run-types.js";
import { ServerClient } from "./server-client.js";
import type { PersonSession, SimulatedPerson } from "./simulated-person.js";

/** The principal every evaluation conversation belongs to (filter on it in Glove Studio). */
export const EVAL_PRINCIPAL = "glove-evals";

export interface EvalHarnessOptions {
  /** The app's agent factory: the same function its glove-server serves. */
  agent: AgentFactory;
  /** The variant to run. */
  override?: AgentOverride;
  /** Where the runs' conversations are stored (they stay there, with their traces). */
  storage: ServerStorage;
  /** The agent's name on the in-process server (shown in Studio). Default "agent". */
  agentName?: string;
}

export interface RunItemOptions {
  person: SimulatedPerson;
  /** The run is aborted after this long and ends as "timeout". */
  timeoutMs?: number;
  /** Aborts the run (it ends as "aborted"). */
  signal?: AbortSignal;
}

/**
 * Runs items through an in-process glove-server on the experiment's storage: every run is a stored
 * conversation with its turn traces, and the simulated person answers questions over the same
 * routes a browser uses.
 */
export class EvalHarness {
  readonly server: GloveServer;
  readonly #client: ServerClient;
  readonly #agentName: string;
  readonly #logs = new Map<string, ModelCallLog>();

  constructor(options: EvalHarnessOptions) {
    this.#agentName = options.agentName ?? "agent";
    const factory = applyOverride(options.agent, options.override);
    this.server = createGloveServer({
      agents: {
        [this.#agentName]: async (context) => {
          const glove = await factory(context);
          const log = this.#logs.get(context.conversationId) ?? new ModelCallLog();
          this.#logs.set(context.conversationId, log);
          glove.setModel(recordingModel(glove.model, log));
          return glove;
        },
      },
      authenticate: () => ({ id: EVAL_PRINCIPAL }),
      store: options.storage,
      // One principal runs every item: the per-principal quotas meant for browsers do not apply.
      limits: {
        conversationsPerPrincipal: Infinity,
        conversationsPerMinute: Infinity,
        concurrentTurnsPerPrincipal: Infinity,
        turnsPerMinute: Infinity,
      },
      // A finished run's conversation is never read through the server again (its snapshot is
      // taken, the rest is in the store): a small cap lets them go, where the default 1 000 would
      // keep that many in memory and scan them all on each new run once an experiment passes it.
      maxLiveConversations: 64,
      log: () => undefined,
    });
    this.#client = new ServerClient(this.server);
  }

  /** Runs one item once; never throws for the agent's failures (they are the run's status). */
  async run(
    item: EvalItem,
    repetition: number,
    options: RunItemOptions,
  ): Promise<ItemRun & { providerError: unknown }> {
    const started = performance.now();
    const created = await this.#client.expect(201, "POST", "/conversations", { agent: this.#agentName });
    const id = created.id as string;
    const feed = await this.#client.events(id);
    const state = new RunState();
    const session = options.person.forItem(item);
    let status: RunStatus = "done";
    let error: { code: string; message: string } | undefined;
    let stopReason: RunStatus | undefined;
    const stop = (reason: RunStatus) => {
      stopReason ??= reason;
      void this.#client.request("POST", `/conversations/${id}/abort`).catch(() => undefined);
    };
    const timer = options.timeoutMs ? setTimeout(() => stop("timeout"), options.timeoutMs) : undefined;
    const onAbort = () => stop("aborted");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for (const text of itemTurns(item)) {
        if (stopReason) break;
        await this.#client.expect(202, "POST", `/conversations/${id}/messages`, { text });
        const end = await this.#untilTurnEnds(id, feed, state, session);
        if (end.status !== "done") {
          status = end.status === "aborted" ? (stopReason ?? "aborted") : "error";
          if (end.error) error = end.error;
          break;
        }
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      await feed.close();
    }
    if (stopReason && status === "done") status = stopReason;
    const snapshot = await this.#client.expect(200, "GET", `/conversations/${id}`);
    const messages = snapshot.messages as Message[];
    const stats = snapshot.stats as { turns: number; tokens_in: number; tokens_out: number };
    const log = this.#logs.get(id);
    this.#logs.delete(id);
    return {
      item,
      repetition,
      conversationId: id,
      status,
      ...(error ? { error } : {}),
      ...finalAnswer(messages),
      toolCalls: toolCallsOf(messages),
      questions: state.questions,
      timeline: state.timeline,
      messages,
      usage: { tokensIn: stats.tokens_in, tokensOut: stats.tokens_out, modelCalls: stats.turns },
      models: log?.usage ?? [],
      latencyMs: performance.now() - started,
      retries: 0,
      providerError: status === "error" ? log?.lastError : undefined,
    };
  }

  /** Reads events until the turn ends (a turn that waits for an answer goes on once it is given). */
  async #untilTurnEnds(
    id: string,
    feed: EventFeed,
    state: RunState,
    session: PersonSession,
  ): Promise<{ status: string; error?: { code: string; message: string } }> {
    for (;;) {
      const event = await feed.next();
      if (!event)
        return { status: "error", error: { code: "GLOVE_EVAL_RUN", message: "The event stream ended early." } };
      const slot = state.observe(event);
      if (slot) await this.#answer(id, slot, state, session);
      if (event.type === "turn_end" && event.data.status !== "waiting") {
        return {
          status: event.data.status as string,
          ...(event.data.error ? { error: event.data.error as { code: string; message: string } } : {}),
        };
      }
    }
  }

  async #answer(id: string, slot: WireSlot, state: RunState, session: PersonSession): Promise<void> {
    const question = state.questions.find((q) => q.slotId === slot.id)!;
    const asked = {
      kind: question.kind,
      toolName: slot.toolName,
      renderer: slot.renderer,
      input: slot.input,
    };
    let reply = await session.answer(asked);
    let answer = await this.#client.request("POST", `/conversations/${id}/slots/${slot.id}`, reply);
    if (answer.status === 400 && "resolve" in reply) {
      // The tool's resolveSchema refused it: one more try with the reasons, then a refusal.
      const refused = JSON.stringify(answer.body.error ?? answer.body).slice(0, 500);
      reply = await session.answer({ ...asked, refused });
      answer = await this.#client.request("POST", `/conversations/${id}/slots/${slot.id}`, reply);
      if (answer.status === 400) {
        reply = { reject: `The simulated person's answers were refused: ${refused}` };
        answer = await this.#client.request("POST", `/conversations/${id}/slots/${slot.id}`, reply);
      }
    }
    if (answer.status === 200) question.answer = reply;
  }

  async close(): Promise<void> {
    await this.server.close();
  }
}
