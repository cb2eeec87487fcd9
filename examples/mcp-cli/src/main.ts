#!/usr/bin/env node
import { runMcpCli } from "./agent.js";
import { selectModel } from "./model.js";

// Ctrl-C / SIGTERM: exit through process.exit so the catalogue's exit hook stops server-everything
// (the stdio memory server exits when its stdin closes).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

const choice = selectModel(process.env);
try {
  if (choice.kind === "live") {
    console.log(`Using ${choice.provider}.`);
    await runMcpCli({ model: choice.model });
  } else {
    console.log(choice.reason);
    await runMcpCli();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
