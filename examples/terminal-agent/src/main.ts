#!/usr/bin/env node
import { resolve } from "node:path";
import { runChat } from "./chat.js";
import { describeSession, parseSession } from "./agent.js";
import { selectModel } from "./model.js";
import { runWalkthrough } from "./walkthrough.js";

/** Notes go to $GLOVE_DATA_DIR, by default `.glove/` in the current directory (gitignored). */
const dataDir = resolve(process.env.GLOVE_DATA_DIR ?? ".glove");
const choice = selectModel(process.env);
const io = { input: process.stdin, output: process.stdout, dataDir };

try {
  const { session, problem } = parseSession(process.argv.slice(2), process.env);
  if (problem) throw new Error(problem);
  // createAgent opens the SqliteStore for this name (see agent.ts).
  if (session) process.env.GLOVE_SESSION = session;
  if (choice.kind === "live") {
    if (session) console.log(await describeSession(dataDir, session));
    await runChat({ ...io, model: choice.model });
  } else {
    console.log(choice.reason);
    if (session) console.log(await describeSession(dataDir, session));
    await runWalkthrough(io);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
