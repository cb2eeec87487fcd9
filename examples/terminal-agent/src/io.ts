import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { Prompter } from "./terminal-ui.js";

/** Line input over node:readline, shared by the user prompt and the UI's questions. */
export interface LineIo extends Prompter {
  /** Resolves with the next line, or undefined once input has ended (Ctrl-D, EOF) or `signal` fired. */
  readLine(prompt: string, signal?: AbortSignal): Promise<string | undefined>;
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
    readLine(prompt, signal) {
      return new Promise((resolve) => {
        if (closed || signal?.aborted) return resolve(undefined);
        const done = (answer: string | undefined) => {
          rl.off("close", onClose);
          signal?.removeEventListener("abort", onAbort);
          resolve(answer);
        };
        const onClose = () => done(undefined);
        // A question left pending would swallow the next one (readline asks one at a time).
        const onAbort = () => {
          output.write("\n");
          done(undefined);
        };
        rl.once("close", onClose);
        signal?.addEventListener("abort", onAbort, { once: true });
        rl.question(prompt, signal ? { signal } : {}, (answer) => done(answer));
      });
    },
    // A question the user never answers (input closed, or the prompt was taken down) counts as "no".
    async ask(question, signal) {
      return (await io.readLine(question, signal)) ?? "";
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
