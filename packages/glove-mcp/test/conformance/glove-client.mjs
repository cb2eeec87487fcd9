// glove-mcp as the client under test of the MCP conformance suite: the suite runs
// `node glove-client.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO set. Everything goes through
// glove-mcp's public API (bundled from source by the test): connectMcp with client features, bridged tools called by a
// Glove whose scripted model calls every tool the server lists, and glove-mcp/oauth for auth (glove-auth.mjs).
// `--access-token` before the server URL signs in with the README's bearer-token configuration
// (getAccessToken + runMcpOAuth) instead of an authProvider.
import process from "node:process";
import { Displaymanager, Glove, MemoryStore, PERMISSION_REQUEST_RENDERER } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import {
  bridgeMcpTools,
  connectMcp,
  gloveClientFeatures,
  McpAuthError,
  McpInsufficientScopeError,
  MCP_ELICITATION_RENDERER,
  MCP_URL_ELICITATION_RENDERER,
} from "glove-mcp";
import { signIn } from "./glove-auth.mjs";
import { argumentsFor, scenarioContext } from "./scenario-support.mjs";

const serverUrl = process.argv.at(-1);
const configuration = process.argv.includes("--access-token") ? "access-token" : "auth-provider";
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const entry = { id: "conf", name: "Conformance", description: "conformance scenario server", url: serverUrl };

// A UI Glove whose "user" is a display-stack listener: it allows every tool call, accepts every
// form with no fields, so the schema's defaults apply (what the elicitation scenario checks), and
// declines to open the pages URL-mode elicitations point to.
const model = new ScriptedModel([]);
const displayManager = new Displaymanager();
displayManager.subscribe((stack) => {
  for (const slot of stack) {
    if (slot.renderer === PERMISSION_REQUEST_RENDERER) displayManager.resolve(slot.id, true);
    if (slot.renderer === MCP_ELICITATION_RENDERER) displayManager.resolve(slot.id, { action: "accept", content: {} });
    if (slot.renderer === MCP_URL_ELICITATION_RENDERER) displayManager.resolve(slot.id, { action: "decline" });
  }
});
const store = new MemoryStore("conformance");
const glove = new Glove({
  store,
  model,
  displayManager,
  systemPrompt: "Call every tool once.",
  compaction_config: { compaction_instructions: "Summarise." },
}).build();
const features = gloveClientFeatures(glove, { elicitation: { url: true } });
const auth = await signIn(scenario, scenarioContext(), serverUrl, entry.id, configuration);
const options = {
  features,
  ...(auth.authProvider ? { authProvider: auth.authProvider } : {}),
  ...(auth.getAccessToken ? { getAccessToken: auth.getAccessToken } : {}),
};

/** Connects; a refusal that began a login (401, or a 403 step-up) is finished and tried once more (a scope that is never granted must not loop). */
async function connect() {
  for (let attempt = 0; ; attempt++) {
    try {
      return await connectMcp(entry, options);
    } catch (error) {
      const refused = McpAuthError.isInstance(error) || McpInsufficientScopeError.isInstance(error);
      if (!refused || attempt === 1 || !(await auth.finishLogin(error))) throw error;
    }
  }
}

let round = 0;

/** The refusal among the last round's tool results (what the model saw), if any: `{ requiredScope? }`. */
async function refusalOfLastRound() {
  const messages = await store.getMessages();
  const results = messages.flatMap((m) => m.tool_results ?? []).filter((r) => r.call_id?.startsWith(`c${round}-`));
  const refused = results.find((r) => ["insufficient_scope", "auth_expired"].includes(r.result?.message));
  return refused
    ? { ...(refused.result.data?.requiredScope ? { requiredScope: refused.result.data.requiredScope } : {}) }
    : undefined;
}

/** One model turn that calls every tool the server lists. */
async function callEveryTool(connection, folds) {
  round++;
  model.push(
    {
      toolCalls: connection.tools.map((tool, i) => ({
        name: folds[i].name,
        input: argumentsFor(tool),
        id: `c${round}-${i}`,
      })),
    },
    { text: "done" },
  );
  await glove.processRequest("Run the scenario.");
}

const connection = await connect();
try {
  const folds = bridgeMcpTools(connection, false);
  for (const fold of folds) glove.fold(fold);
  if (connection.tools.length > 0) {
    await callEveryTool(connection, folds);
    // A call refused for scope began a login: once the user finished it, the tools run again.
    if (await auth.finishLogin(await refusalOfLastRound())) await callEveryTool(connection, folds);
  }
} finally {
  await connection.close();
  await auth.close();
}
