import { z } from "zod";
import type { StoreAdapter } from "glove-core";
import { startServer, testAgent, type AgentKit, type TestServer } from "../../../support/harness.js";

/** A tool the user must allow first: Glove's permission prompt, an AG-UI tool approval. */
export const deleteFile = {
  name: "delete_file",
  description: "Deletes a file.",
  inputSchema: z.object({ path: z.string() }),
  requiresPermission: true,
  do: async (input: { path: string }) => ({ status: "success" as const, data: `deleted ${input.path}` }),
};

/** The test server's agent (questions, cards, slow tools) with a tool behind a permission prompt. */
export async function startAgUiServer(
  options: Parameters<typeof startServer>[0] & { script?: AgentKit["script"] } = {},
): Promise<TestServer> {
  const kit: AgentKit = { script: options.script ?? [], delayMs: 2, toolSignals: [] };
  const { script: _script, ...rest } = options;
  const agent = testAgent(kit);
  const server = await startServer({
    agents: { assistant: ({ store }: { store: StoreAdapter }) => agent({ store }).fold(deleteFile) },
    ...rest,
  });
  // The harness keeps its own kit; this server's agent plays `kit`.
  server.kit.script = kit.script;
  return Object.assign(server, { kit });
}
