#!/usr/bin/env node
import { resolve } from "node:path";
import { runChat } from "./chat.js";
import { selectModel } from "./model.js";
import { runWalkthrough } from "./walkthrough.js";

/** Notes go to $GLOVE_DATA_DIR, by default `.glove/` in the current directory (gitignored). */
const dataDir = resolve(process.env.GLOVE_DATA_DIR ?? ".glove");
const choice = selectModel(process.env);
const io = { input: process.stdin, output: process.stdout, dataDir };

try {
  if (choice.kind === "live") {
    await runChat({ ...io, model: choice.model });
  } else {
    console.log(choice.reason);
    await runWalkthrough(io);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
