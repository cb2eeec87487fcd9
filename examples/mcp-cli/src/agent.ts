import { createInterface } from "node:readline";
import { Glove, MemoryStore, type Message, type ModelAdapter } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { mountMcp, type McpCatalogueEntry } from "glove-mcp";
import { FsOAuthStore } from "glove-mcp/oauth";
import { startLocalCatalogue } from "./catalogue.js";
import { DEFAULT_TOKEN_FILE, OAuthStoreMcpAdapter } from "./remote.js";

export const SYSTEM_PROMPT =
  "You are a terminal assistant. When you lack a capability, ask the discovermcp subagent to find and activate an MCP server for it; its tools are available on your next turn.";

/** Canned user inputs of the offline walkthrough. */
export const WALKTHROUGH_INPUTS = ["Echo 'hello from glove' and add 2 and 3.", "Remember that Ada likes tea."];

/** The scripted turns: main agent and discovery child interleave (the child inherits the model). */
export function walkthroughModel(): ScriptedModel {
  return new ScriptedModel([
    {
      toolCalls: [
        {
          name: "glove_invoke_subagent",
          input: { name: "discovermcp", prompt: "A server that can echo text and add numbers" },
        },
      ],
    },
    { toolCalls: [{ name: "mcp_activate", input: { query: "echo sum" } }] },
    { text: "Activated everything: everything__echo, everything__get-sum, …" },
    {
      toolCalls: [
        { name: "everything__echo", input: { message: "hello from glove" } },
        { name: "everything__get-sum", input: { a: 2, b: 3 } },
      ],
    },
    { text: "The server echoed your message, and 2 + 3 = 5." },
    {
      toolCalls: [
        {
          name: "glove_invoke_subagent",
          input: { name: "discovermcp", prompt: "Something to remember facts about people" },
        },
      ],
    },
    { toolCalls: [{ name: "mcp_activate", input: { query: "remember knowledge" } }] },
    { text: "Activated memory: memory__create_entities, memory__read_graph, …" },
    {
      toolCalls: [
        {
          name: "memory__create_entities",
          input: { entities: [{ name: "Ada", entityType: "person", observations: ["likes tea"] }] },
        },
      ],
    },
    { text: "Noted: Ada likes tea." },
  ]);
}

function preview(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function describeMessages(messages: Message[]): string[] {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.sender === "agent" && message.text.trim()) lines.push(`agent: ${message.text.trim()}`);
    for (const call of message.tool_calls ?? []) lines.push(`  → ${call.tool_name}(${preview(call.input_args)})`);
    for (const result of message.tool_results ?? []) {
      const { status, data, message: error } = result.result;
      lines.push(`  ← ${result.tool_name} [${status}] ${preview(status === "success" ? data : error)}`);
    }
  }
  return lines;
}

export interface RunOptions {
  /** A real provider's model; without one the scripted walkthrough plays. */
  model?: ModelAdapter;
  /** Lines to send; when absent, read from stdin (live) or the canned inputs (offline). */
  inputs?: string[];
  write?: (line: string) => void;
  /** OAuth-protected entries to add to the local catalogue (`--remote`: Notion and Gmail). */
  remote?: McpCatalogueEntry[];
  /** Where `auth <id>` stored the tokens. Default `.glove/mcp-oauth.json`. */
  tokenFile?: string;
}

/** Starts the local catalogue, mounts it on a Glove, runs the conversation, and cleans up. */
export async function runMcpCli(options: RunOptions = {}): Promise<{ activeEntries: string[]; messages: Message[] }> {
  const write = options.write ?? ((line: string) => console.log(line));
  const model = options.model ?? walkthroughModel();
  const catalogue = await startLocalCatalogue();
  try {
    const entries = [...catalogue.entries, ...(options.remote ?? [])];
    write(`Catalogue: ${entries.map((e) => `${e.id} (${e.stdio ? "stdio" : e.url})`).join(", ")}`);
    const store = new MemoryStore("mcp-cli");
    const glove = new Glove({
      store,
      model,
      systemPrompt: SYSTEM_PROMPT,
      serverMode: true,
    }).build();
    const tokens = new FsOAuthStore(options.tokenFile ?? DEFAULT_TOKEN_FILE);
    const adapter = new OAuthStoreMcpAdapter("mcp-cli", tokens, new Set(catalogue.entries.map((e) => e.id)));
    const mount = await mountMcp(glove, { adapter, entries });
    try {
      const send = async (input: string) => {
        write(`you: ${input}`);
        const before = (await store.getMessages()).length;
        await glove.processRequest(input);
        for (const line of describeMessages((await store.getMessages()).slice(before))) write(line);
      };
      const inputs = options.inputs ?? (options.model ? undefined : WALKTHROUGH_INPUTS);
      if (inputs) {
        for (const input of inputs) await send(input);
      } else {
        const rl = createInterface({ input: process.stdin, terminal: process.stdin.isTTY });
        if (process.stdin.isTTY) write("Type a request (Ctrl-D to quit).");
        for await (const line of rl) if (line.trim()) await send(line.trim());
      }
      return { activeEntries: await adapter.getActive(), messages: await store.getMessages() };
    } finally {
      await mount.unmount();
    }
  } finally {
    await catalogue.stop();
  }
}
