import { Glove, type ModelAdapter, type StoreAdapter } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createModel, selectModel, type ProviderName } from "glove-example-terminal-agent/model";
import { offlineTurn } from "./offline-script.js";
import { bookTableTool, reservationFormTool, showMenuTool, type Booking } from "./tools.js";

export const SYSTEM_PROMPT = [
  "You are the reservation assistant of Glove Bistro, talking to a guest in a web page.",
  "Show the menu with show_menu when food comes up.",
  "To book: call reservation_form to collect the name, number of guests and time, then book_table with exactly what the form returned (the user is asked for permission).",
  "For a booking, keep a short task list with glove_update_tasks and update it as you go.",
  "Answer in one or two short sentences.",
].join(" ");

/** Where the agent's words come from: a provider chosen from the environment, or the offline script. */
export type ModelSource = { kind: "live"; provider: ProviderName } | { kind: "offline"; reason: string };

/**
 * The model as the terminal-agent example chooses it (GLOVE_PROVIDER, ANTHROPIC_API_KEY,
 * OPENAI_API_KEY…; `glove-example-terminal-agent/model`), else the offline walkthrough.
 */
export function modelSource(env: NodeJS.ProcessEnv): ModelSource {
  const choice = selectModel(env);
  return choice.kind === "live" ? { kind: "live", provider: choice.provider } : choice;
}

export interface AgentOptions {
  source: ModelSource;
  env: NodeJS.ProcessEnv;
  /** Pause between the offline model's streamed words, so a person sees them arrive. */
  offlineDelayMs: number;
  /** Bookings made by book_table (shared by every conversation of the server). */
  bookings: Map<string, Booking>;
}

/** The agent factory glove-server calls for each conversation it opens (a fresh Glove, a fresh model). */
export function bistroAgent(options: AgentOptions) {
  return ({ store }: { store: StoreAdapter }) => {
    const model: ModelAdapter =
      options.source.kind === "live"
        ? createModel(options.source.provider, options.env)
        : new ScriptedModel([], {
            name: "offline-walkthrough",
            delayMs: options.offlineDelayMs,
            record: false,
            fallback: offlineTurn,
          });
    return new Glove({
      store,
      model,
      systemPrompt: SYSTEM_PROMPT,
      compaction_config: {
        compaction_instructions:
          "Summarise the conversation: what the guest asked, what was booked (names, times, confirmation codes) and anything still open.",
      },
    })
      .fold(showMenuTool)
      .fold(reservationFormTool)
      .fold(bookTableTool(options.bookings));
  };
}
