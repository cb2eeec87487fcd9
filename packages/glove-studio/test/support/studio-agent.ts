/**
 * The agent the studio's tests store real conversations with: a scripted model that answers by
 * what the user wrote, and tools that fetch, ask a person, echo hostile content and wait at a gate.
 */
import { z } from "zod";
import { Displaymanager, Glove, type ModelAdapter, type PromptRequest, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";

/** Text no page may run or render as markup: it must show up as these characters. */
export const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>not bold</b>`;
/** A tool result far larger than a page should render at once. */
export const HUGE = "x".repeat(300_000);

/** Gates a test opens: the slow tool waits at one until then (or until the turn is aborted). */
export class Gate {
  #open!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.#open = resolve));
  reached = false;
  open(): void {
    this.#open();
  }
}

function lastUserText(request: PromptRequest): string {
  const users = request.messages.filter((m) => m.sender === "user" && !m.tool_results?.length);
  return users.at(-1)?.text ?? "";
}

/** The model's next turn for the request: a tool call first, then words about its result. */
function answer(request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  const said = lastUserText(request);
  if (last?.tool_results?.length) {
    const result = last.tool_results[0]!;
    if (result.tool_name === "get_weather")
      return {
        text: `It is ${(result.result.data as { sky: string }).sky} in ${(result.result.data as { city: string }).city}.`,
      };
    if (result.tool_name === "ask_name") return { text: `Thanks, ${(result.result.data as { name: string }).name}.` };
    if (result.tool_name === "echo") return { text: `Echoed: ${HOSTILE}` };
    if (result.tool_name === "glove_invoke_subagent")
      return { text: `The forecaster says: ${(result.result.data as { content: string }).content}` };
    return { text: "Done." };
  }
  const [command, ...rest] = said.split(" ");
  const argument = rest.join(" ");
  if (command === "weather") return { toolCalls: [{ name: "get_weather", input: { city: argument } }] };
  if (command === "ask")
    return { toolCalls: [{ name: "ask_name", input: { question: argument || "What is your name?" } }] };
  if (command === "hostile") return { toolCalls: [{ name: "echo", input: { html: HOSTILE } }] };
  if (command === "delegate")
    return { toolCalls: [{ name: "glove_invoke_subagent", input: { name: "forecaster", prompt: argument } }] };
  if (command === "slow") return { toolCalls: [{ name: "slow_job", input: {} }] };
  if (command === "fail") return { error: new Error("The model provider is down.") };
  return { text: `You said: ${said}` };
}

/** The forecaster subagent's model: looks the city up, then answers. */
function forecast(request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.tool_results?.length)
    return { text: `Forecast: ${(last.tool_results[0]!.result.data as { sky: string }).sky}` };
  return { toolCalls: [{ name: "get_weather", input: { city: lastUserText(request) } }] };
}

const weatherTool = {
  name: "get_weather",
  description: "The sky over a city.",
  inputSchema: z.object({ city: z.string() }),
  do: async (input: { city: string }) => ({ status: "success" as const, data: { city: input.city, sky: "sunny" } }),
};

/** Text a "stream" turn streams before it waits at the gate, and after. */
export const STREAMED = { before: "Streaming: halfway", after: " — done." };

/**
 * The scripted model, except that a "stream …" message is answered with text that stops halfway
 * at the test's gate (as a slow provider does), so a page can be seen showing it mid-stream.
 */
function gatedStreaming(gate: { current: Gate }): ModelAdapter {
  const scripted = new ScriptedModel([], { fallback: answer });
  return {
    name: scripted.name,
    setSystemPrompt: (prompt) => scripted.setSystemPrompt(prompt),
    async prompt(request, notify, signal) {
      if (!lastUserText(request).startsWith("stream ") || request.messages.at(-1)?.tool_results?.length)
        return scripted.prompt(request, notify, signal);
      await notify("text_delta", { text: STREAMED.before.slice(0, 10) });
      await notify("text_delta", { text: STREAMED.before.slice(10) });
      gate.current.reached = true;
      await Promise.race([
        gate.current.opened,
        new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true })),
      ]);
      await notify("text_delta", { text: STREAMED.after });
      const text = STREAMED.before + STREAMED.after;
      await notify("model_response_complete", { text, stop_reason: "end_turn", tokens_in: 10, tokens_out: 5 });
      return { messages: [{ sender: "agent", text }], tokens_in: 10, tokens_out: 5 };
    },
  };
}

export function studioAgent(gate: { current: Gate }) {
  return ({ store }: { store: StoreAdapter }) =>
    new Glove({
      store,
      model: gatedStreaming(gate),
      displayManager: new Displaymanager(),
      systemPrompt: "You are the studio's test agent.",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .fold(weatherTool)
      .defineSubAgent({
        name: "forecaster",
        description: "Looks up forecasts.",
        factory: async ({ parentStore, displayManager }) =>
          new Glove({
            model: new ScriptedModel([], { fallback: forecast }),
            displayManager,
            systemPrompt: "You forecast.",
            compaction_config: { compaction_instructions: "Summarize." },
          })
            .fold(weatherTool)
            .build(await parentStore.createSubAgentStore!("forecaster", { durable: true })),
      })
      .fold({
        name: "ask_name",
        description: "Asks the user for their name.",
        inputSchema: z.object({ question: z.string() }),
        resolveSchema: z.object({ name: z.string() }),
        do: async (input, display) => ({ status: "success", data: await display.pushAndWait({ input }) }),
      })
      .fold({
        name: "echo",
        description: "Returns what it got, and a lot more.",
        inputSchema: z.object({ html: z.string() }),
        do: async (input) => ({ status: "success", data: { html: input.html, padding: HUGE } }),
      })
      .fold({
        name: "slow_job",
        description: "Waits at the test's gate.",
        do: async (_input, _display, _glove, signal) => {
          gate.current.reached = true;
          await Promise.race([
            gate.current.opened,
            new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true })),
          ]);
          return { status: "success", data: "finished" };
        },
      });
}
