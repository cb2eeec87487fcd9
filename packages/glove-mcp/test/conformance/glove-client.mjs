// glove-mcp as the client under test of the MCP conformance suite: the suite runs
// `node glove-client.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO set. Everything goes through
// glove-mcp's public API (bundled from source by the test): connectMcp with client features, bridged tools called by a
// Glove whose scripted model calls every tool the server lists, and glove-mcp/oauth for auth.
import process from "node:process";
import { URL } from "node:url";
/* global fetch */
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { Displaymanager, Glove, MemoryStore, PERMISSION_REQUEST_RENDERER } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { bridgeMcpTools, connectMcp, gloveClientFeatures, MCP_ELICITATION_RENDERER } from "glove-mcp";
import { buildClientMetadata, McpOAuthProvider, MemoryOAuthStore, runMcpOAuth } from "glove-mcp/oauth";
import { argumentsFor, headlessAuthorize, scenarioContext } from "./scenario-support.mjs";

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = scenarioContext();
const entry = { id: "conf", name: "Conformance", description: "conformance scenario server", url: serverUrl };

// A UI Glove whose "user" is a display-stack listener: it allows every tool call and accepts every
// form with no fields, so the schema's defaults apply (what the elicitation scenario checks).
const model = new ScriptedModel([]);
const displayManager = new Displaymanager();
displayManager.subscribe((stack) => {
  for (const slot of stack) {
    if (slot.renderer === PERMISSION_REQUEST_RENDERER) displayManager.resolve(slot.id, true);
    if (slot.renderer === MCP_ELICITATION_RENDERER) displayManager.resolve(slot.id, { action: "accept", content: {} });
  }
});
const glove = new Glove({
  store: new MemoryStore("conformance"),
  model,
  displayManager,
  systemPrompt: "Call every tool once.",
  compaction_config: { compaction_instructions: "Summarise." },
}).build();
const features = gloveClientFeatures(glove, { elicitation: true });

async function authOptions() {
  if (scenario === "auth/client-credentials-basic") {
    return { authProvider: new ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret }) };
  }
  if (scenario === "auth/client-credentials-jwt") {
    return { authProvider: new PrivateKeyJwtProvider({ clientId: context.client_id, privateKey: context.private_key_pem, algorithm: context.signing_algorithm ?? "ES256" }) };
  }
  if (!scenario.startsWith("auth/")) return {};
  // The terminal flow of glove-mcp/oauth, with the browser played by fetch.
  const store = new MemoryOAuthStore();
  const preRegisteredClient = context.client_id ? { client_id: context.client_id, client_secret: context.client_secret } : undefined;
  let redirectUrl;
  const openBrowser = async (url) => {
    redirectUrl ??= new URL(url).searchParams.get("redirect_uri");
    const callback = await headlessAuthorize(url, redirectUrl);
    await fetch(callback);
  };
  await runMcpOAuth({ serverUrl, store, key: entry.id, port: 0, verify: false, openBrowser, log: () => undefined, timeoutMs: 10_000, ...(preRegisteredClient ? { preRegisteredClient } : {}) });
  // Later 401s / 403 step-ups go through the same store.
  const authProvider = new McpOAuthProvider({
    store,
    key: entry.id,
    redirectUrl: redirectUrl ?? "http://127.0.0.1/callback",
    clientMetadata: buildClientMetadata({ redirectUrl: redirectUrl ?? "http://127.0.0.1/callback" }),
    ...(preRegisteredClient ? { preRegisteredClient } : {}),
    onAuthorizationUrl: openBrowser,
  });
  return { authProvider };
}

const connection = await connectMcp(entry, { features, ...(await authOptions()) });
try {
  const folds = bridgeMcpTools(connection, false);
  for (const fold of folds) glove.fold(fold);
  model.push(
    { toolCalls: connection.tools.map((tool, i) => ({ name: folds[i].name, input: argumentsFor(tool), id: `c${i}` })) },
    { text: "done" },
  );
  if (connection.tools.length > 0) await glove.processRequest("Run the scenario.");
} finally {
  await connection.close();
}
