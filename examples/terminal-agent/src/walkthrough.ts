import type { Readable, Writable } from "node:stream";
import type { Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createAgent, DEFAULT_COMPACTION } from "./agent.js";
import { sendRequest } from "./chat.js";
import { createReadlineIo, isTty, type LineIo } from "./io.js";
import { autoPrompter, TerminalUi } from "./terminal-ui.js";
import { SCENES, WalkthroughDirector } from "./walkthrough-script.js";

export interface WalkthroughOptions {
  input: Readable;
  output: Writable;
  /** Where notes.json lives. */
  dataDir: string;
  /** Read the user's lines and ask real questions. Default: whether `input` is a TTY. */
  interactive?: boolean;
  /** Pause between streamed words. Default 25 ms when interactive, 0 otherwise. */
  delayMs?: number;
}

/** Model turns after which the walkthrough compacts: the end of the permission scene. */
export const WALKTHROUGH_MAX_TURNS = 11;

/**
 * The offline walkthrough: a scripted model driving the real runtime (real
 * Glove, tools, store and display manager). Interactive runs read the user's
 * lines (Enter takes the suggestion); other runs play canned inputs and answer
 * every prompt with "y".
 */
export async function runWalkthrough(options: WalkthroughOptions): Promise<void> {
  const { input, output, dataDir } = options;
  const interactive = options.interactive ?? isTty(input);
  const io: LineIo | undefined = interactive ? createReadlineIo(input, output) : undefined;
  const prompter = io ?? autoPrompter(output, "y", "stdin is not a TTY");
  const ui = new TerminalUi(output, prompter);

  const director = new WalkthroughDirector(SCENES);
  const model = new ScriptedModel([], {
    name: "offline-walkthrough",
    fallback: director.step,
    delayMs: options.delayMs ?? (interactive ? 25 : 0),
  });
  const agent = createAgent({
    model,
    dataDir,
    compaction: { ...DEFAULT_COMPACTION, max_turns: WALKTHROUGH_MAX_TURNS },
  });
  agent.glove.addSubscriber(ui);
  const unwatch = ui.watch(agent.display);
  // A resumed session (--session) continues with the next scene instead of starting over.
  const completed = Math.min(scenesPlayed(await agent.glove.store.getMessages()), SCENES.length);
  director.resumeAfter(completed);

  ui.line("Offline walkthrough: a scripted model drives the real Glove runtime and tools.");
  ui.line(`Notes are kept in ${agent.notes.path}. Compaction runs every ${WALKTHROUGH_MAX_TURNS} model turns here.`);
  if (!interactive) ui.line('stdin is not a TTY: playing the suggested inputs and answering prompts with "y".');
  if (completed > 0) ui.line(`Resuming after scene ${completed} of ${SCENES.length}.`);
  try {
    for (const [index, scene] of SCENES.entries()) {
      if (index < completed) continue;
      ui.line(`\n== ${index + 1}/${SCENES.length}: ${scene.title} ==`);
      const text = await userLine(io, ui, scene.suggestion);
      if (text === undefined) break;
      await sendRequest(agent.glove, text, io, ui);
    }
    ui.line(
      "\nThat was the offline walkthrough. Set ANTHROPIC_API_KEY or OPENAI_API_KEY (or GLOVE_PROVIDER with GLOVE_MODEL / GLOVE_BASE_URL for a local server) to chat with a real model.",
    );
  } finally {
    unwatch();
    io?.close();
  }
}

/** How many scenes a stored conversation already played: one real user message each. */
function scenesPlayed(history: readonly Message[]): number {
  return history.filter(
    (m) =>
      m.sender === "user" &&
      !m.tool_results?.length &&
      !m.is_skill_injection &&
      !m.is_compaction &&
      !m.is_compaction_request,
  ).length;
}

/** The user's line (Enter = the suggestion), the suggestion itself when not interactive, undefined to quit. */
async function userLine(io: LineIo | undefined, ui: TerminalUi, suggestion: string): Promise<string | undefined> {
  if (!io) {
    ui.line(`you> ${suggestion}`);
    return suggestion;
  }
  ui.line(`   suggested: "${suggestion}"  (Enter to use it, "exit" to quit)`);
  const text = await io.readLine("you> ");
  if (text === undefined || /^(exit|quit)$/i.test(text.trim())) return undefined;
  return text.trim() || suggestion;
}
