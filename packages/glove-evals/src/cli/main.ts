#!/usr/bin/env node
import { cli } from "./cli.js";

// The first Ctrl-C stops the run and keeps what finished (resume with --resume); a second exits at once.
const controller = new AbortController();
process.on("SIGINT", () => {
  if (controller.signal.aborted) process.exit(130);
  process.stderr.write("\nstopping: finished runs are kept (Ctrl-C again to quit now)\n");
  controller.abort();
});

const code = await cli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
  tty: Boolean(process.stderr.isTTY),
});
process.exitCode = code;
