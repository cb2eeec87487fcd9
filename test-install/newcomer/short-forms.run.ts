// The short forms a newcomer meets first, compiled and run against the tarballs: a Glove on only a
// model and a system prompt, with one tool and one request; a tool that waits for an answer on the
// default display manager; a durable subagent store. The MCP and listenNode short forms are
// compiled here, not run (no MCP server is installed in the app).
import { Glove, MemoryStore, type IGloveRunnable } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { mountMcp, type McpMount } from "glove-mcp";
import { createGloveServer, listenNode, memoryStorage, type Listening } from "glove-server";
import { z } from "zod";

const glove = new Glove({
  model: new ScriptedModel([
    { toolCalls: [{ name: "get_weather", input: { city: "Lagos" } }] },
    { text: "Sunny in Lagos." },
  ]),
  systemPrompt: "You are a helpful assistant.",
})
  .fold({
    name: "get_weather",
    description: "Get the weather for a city.",
    inputSchema: z.object({ city: z.string() }),
    do: async ({ city }) => `Sunny in ${city}`,
  })
  .build();

const result = await glove.processRequest("Weather in Lagos?");
if (result.text !== "Sunny in Lagos.") throw new Error(`unexpected answer: ${result.text}`);

// A tool that waits for the user: the Glove made its own display manager; a UI subscribes to it.
const asker = new Glove({
  model: new ScriptedModel([{ toolCalls: [{ name: "ask_age", input: {} }] }, { text: "Thanks." }]),
  systemPrompt: "Ask for the user's age.",
})
  .fold({
    name: "ask_age",
    description: "Asks the user's age.",
    resolveSchema: z.object({ age: z.number() }),
    do: async (_input, display) => display.pushAndWait({ input: { question: "How old are you?" } }),
  })
  .build();
asker.displayManager.subscribe((stack) => {
  for (const slot of stack) asker.displayManager.resolve(slot.id, { age: 40 });
});
await asker.processRequest("Sign me up");
const answered = (await asker.store.getMessages()).flatMap((m) => m.tool_results ?? [])[0]?.result;
if (JSON.stringify(answered?.data) !== '{"age":40}')
  throw new Error(`unexpected tool result: ${JSON.stringify(answered)}`);

// A subagent's store that keeps its history between invocations.
const parent = new MemoryStore("newcomer");
const notes = await parent.createSubAgentStore("notes", { durable: true });
if ((await parent.createSubAgentStore("notes", { durable: true })) !== notes)
  throw new Error("a durable sub-store is the same store");

/** One MCP server in one line: a local command over stdio (or `{ url }`). */
export function addEverything(agent: IGloveRunnable): Promise<McpMount> {
  return mountMcp(agent, { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
}

/** A page and the API on one origin. */
export function serve(page: (request: Request) => Promise<Response>): Promise<Listening> {
  const server = createGloveServer({
    basePath: "/api",
    agents: { assistant: ({ store }) => new Glove({ store, model: new ScriptedModel([]), systemPrompt: "Be brief." }) },
    authenticate: () => ({ id: "demo" }),
    store: memoryStorage(),
  });
  return listenNode((request) =>
    new URL(request.url).pathname.startsWith("/api/") ? server.fetch(request) : page(request),
  );
}
