#!/usr/bin/env node
import { FsOAuthStore } from "glove-mcp/oauth";
import { runMcpCli } from "./agent.js";
// Provider selection from the environment is the terminal-agent example's.
import { selectModel } from "glove-example-terminal-agent/model";
import { authorizeEntry, DEFAULT_TOKEN_FILE, REMOTE_ENTRIES } from "./remote.js";

// Ctrl-C / SIGTERM: exit through process.exit so the catalogue's exit hook stops server-everything
// (the stdio memory server exits when its stdin closes).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

const args = process.argv.slice(2);

async function auth(id: string | undefined): Promise<void> {
  const entry = REMOTE_ENTRIES.find((e) => e.id === id);
  if (!entry) throw new Error(`Usage: auth <${REMOTE_ENTRIES.map((e) => e.id).join("|")}>`);
  const result = await authorizeEntry(entry, { store: new FsOAuthStore(DEFAULT_TOKEN_FILE) });
  const how = result.reused ? "The stored token still works" : "Authorized";
  console.log(`${how}: ${entry.name} (${result.verified?.tools ?? "?"} tools). Tokens are in ${DEFAULT_TOKEN_FILE}.`);
}

async function chat(): Promise<void> {
  const remote = args.includes("--remote") ? REMOTE_ENTRIES : [];
  const choice = selectModel(process.env);
  if (choice.kind === "live") {
    console.log(`Using ${choice.provider}.`);
    await runMcpCli({ model: choice.model, remote });
  } else {
    console.log(choice.reason);
    await runMcpCli({ remote });
  }
}

try {
  if (args[0] === "auth") await auth(args[1]);
  else await chat();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
