/**
 * The example agent plus a tool that waits at a named gate until the test opens it (or the turn
 * is aborted), so a test can hold a turn running — to stop it, or reload the page meanwhile —
 * without waiting on time. "wait for <gate>" in a message calls it.
 */
import { z } from "zod";
import type { GloveFoldArgs, PromptRequest } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import type { AgentFactory } from "glove-server";
import { assistantAgent } from "../../src/agent.js";
import { offlineTurn } from "../../src/offline-model.js";
import type { SentEmail } from "../../src/tools.js";

export const WAITING_TEXT = "Waiting at the gate.";
export const OPENED_TEXT = "The gate opened.";

export class Gates {
  readonly #open = new Map<string, () => void>();
  readonly #waiting = new Map<string, Promise<void>>();
  /** Gates whose wait ended because the turn was aborted. */
  readonly aborted = new Set<string>();

  #gate(name: string): Promise<void> {
    let gate = this.#waiting.get(name);
    if (!gate) {
      gate = new Promise<void>((resolve) => this.#open.set(name, resolve));
      this.#waiting.set(name, gate);
    }
    return gate;
  }

  open(name: string): void {
    void this.#gate(name);
    this.#open.get(name)!();
  }

  async wait(name: string, signal: AbortSignal | undefined): Promise<"opened" | "aborted"> {
    const aborted = new Promise<"aborted">((resolve) => {
      if (signal?.aborted) resolve("aborted");
      signal?.addEventListener("abort", () => resolve("aborted"), { once: true });
    });
    const outcome = await Promise.race([this.#gate(name).then(() => "opened" as const), aborted]);
    if (outcome === "aborted") this.aborted.add(name);
    return outcome;
  }
}

function waitTool(gates: Gates): GloveFoldArgs<{ gate: string }> {
  return {
    name: "wait_for_gate",
    description: "Waits until the test opens the gate.",
    inputSchema: z.object({ gate: z.string() }),
    async do({ gate }, _display, _glove, signal) {
      const outcome = await gates.wait(gate, signal);
      return outcome === "opened"
        ? { status: "success", data: { gate, opened: true } }
        : { status: "aborted", data: null, message: "stopped" };
    },
  };
}

/** "count" answers "Answer <n>", n counting this conversation's answers (a regenerated one differs). */
function gatedTurns(): (request: PromptRequest) => ScriptedTurn {
  let answers = 0;
  return (request) => {
    const last = request.messages.at(-1);
    if (last?.tool_results?.[0]?.tool_name === "wait_for_gate") return { text: OPENED_TEXT };
    const gate = last?.sender === "user" ? /wait for (\S+)/.exec(last.text) : null;
    if (gate) return { text: WAITING_TEXT, toolCalls: [{ name: "wait_for_gate", input: { gate: gate[1] } }] };
    if (last?.sender === "user" && last.text.includes("count")) return { text: `Answer ${++answers}.` };
    return offlineTurn(request);
  };
}

export function gatedAgent(gates: Gates): (outbox: SentEmail[]) => AgentFactory {
  return (outbox) =>
    assistantAgent({
      outbox,
      model: () => new ScriptedModel([], { name: "gated", delayMs: 5, record: false, fallback: gatedTurns() }),
      extraTools: [waitTool(gates) as GloveFoldArgs<never>],
    });
}
