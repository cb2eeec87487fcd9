#!/usr/bin/env node
// The `glove-studio` command. A committed file (not the build output) so npm links the command at
// install time, before the first build; the CLI itself is compiled to dist/.
/* global URL, console, process */
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(cli)) {
  console.error(
    "glove-studio is not built yet: run `npm run build` (in the Glove repository: npm start or npm run studio builds it).",
  );
  process.exit(1);
}
await import(cli.href);
