import type { Readable, Writable } from "node:stream";
import { AbortError } from "glove-core";
import type { Glove, ModelAdapter } from "glove-core";
import { createAgent } from "./agent.js";
import { createReadlineIo, type LineIo } from "./io.js";
import { TerminalUi } from "./terminal-ui.js";

/**
 * Sends one user request, rendering through the UI's subscriber. Ctrl-C
 * aborts the request instead of quitting. Errors are printed, not thrown.
 */
export async function sendRequest(glove: Glove, text: string, io: LineIo | undefined, ui: TerminalUi): Promise<void> {
  const controller = new AbortController();
  const previous = io?.onInterrupt;
  if (io) {
    io.onInterrupt = () => {
      controller.abort();
      return true;
    };
  }
  try {
    await glove.processRequest(text, controller.signal);
  } catch (error) {
    if (AbortError.isInstance(error)) ui.line("  (request cancelled)");
    else ui.line(`  error: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (io) io.onInterrupt = previous;
  }
}

export interface ChatOptions {
  model: ModelAdapter;
  input: Readable;
  output: Writable;
  dataDir: string;
}

/** The live REPL with a real model: read a line, run it, repeat until "exit" or EOF. */
export async function runChat(options: ChatOptions): Promise<void> {
  const io = createReadlineIo(options.input, options.output);
  const ui = new TerminalUi(options.output, io);
  const agent = createAgent({ model: options.model, dataDir: options.dataDir });
  agent.glove.addSubscriber(ui);
  const unwatch = ui.watch(agent.display);
  ui.line(
    `Glove terminal agent (model: ${options.model.name}). Notes live in ${agent.notes.path}. Type "exit" to quit.`,
  );
  try {
    for (;;) {
      const text = await io.readLine("\nyou> ");
      if (text === undefined || /^(exit|quit)$/i.test(text.trim())) break;
      if (text.trim()) await sendRequest(agent.glove, text, io, ui);
    }
  } finally {
    unwatch();
    io.close();
  }
}
