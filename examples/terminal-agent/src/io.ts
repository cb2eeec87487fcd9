import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { Prompter } from "./terminal-ui.js";

/** Line input over node:readline, shared by the user prompt and the UI's questions. */
export interface LineIo extends Prompter {
  /** Resolves with the next line, or undefined once input has ended (Ctrl-D, EOF). */
  readLine(prompt: string): Promise<string | undefined>;
  /** Ctrl-C calls this; when none is set, or it returns false, input is closed. */
  onInterrupt: (() => boolean) | undefined;
  close(): void;
}

export function createReadlineIo(input: Readable, output: Writable): LineIo {
  const rl = createInterface({ input, output, terminal: isTty(input) && isTty(output) });
  let closed = false;
  rl.on("close", () => {
    closed = true;
  });

  const io: LineIo = {
    onInterrupt: undefined,
    readLine(prompt) {
      return new Promise((resolve) => {
        if (closed) return resolve(undefined);
        const onClose = () => resolve(undefined);
        rl.once("close", onClose);
        rl.question(prompt, (answer) => {
          rl.off("close", onClose);
          resolve(answer);
        });
      });
    },
    // A question the user never answers (input closed) counts as "no".
    async ask(question) {
      return (await io.readLine(question)) ?? "";
    },
    close() {
      if (!closed) rl.close();
    },
  };
  rl.on("SIGINT", () => {
    if (!io.onInterrupt?.()) {
      output.write("\n");
      io.close();
    }
  });
  return io;
}

export function isTty(stream: Readable | Writable): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
