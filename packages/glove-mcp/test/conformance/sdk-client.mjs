// Reference client for the MCP conformance suite, written directly on @modelcontextprotocol/sdk:
// the baseline glove-mcp is measured against. The suite runs `node sdk-client.mjs <server-url>`
// with MCP_CONFORMANCE_SCENARIO (and, for some auth scenarios, MCP_CONFORMANCE_CONTEXT) set.
import process from "node:process";
import { URL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { callScenarioTools, headlessAuthorize, scenarioContext } from "./scenario-support.mjs";

const serverUrl = new URL(process.argv[2]);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = scenarioContext();
const REDIRECT = "http://127.0.0.1:3000/callback";

/** An in-memory OAuthClientProvider whose "browser" is a fetch that reads the code off the redirect. */
class HeadlessProvider {
  constructor(preRegistered) {
    this._client = preRegistered;
    this._tokens = undefined;
    this._verifier = undefined;
    this.code = undefined;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: "sdk-reference-client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this._client?.client_secret ? "client_secret_basic" : "none",
    };
  }
  clientInformation() {
    return this._client;
  }
  saveClientInformation(info) {
    this._client = info;
  }
  tokens() {
    return this._tokens;
  }
  saveTokens(tokens) {
    this._tokens = tokens;
  }
  async redirectToAuthorization(url) {
    this.code = await headlessAuthorize(url);
  }
  saveCodeVerifier(v) {
    this._verifier = v;
  }
  codeVerifier() {
    return this._verifier;
  }
}

function capabilities() {
  if (scenario.startsWith("elicitation")) return { elicitation: { form: { applyDefaults: true } } };
  return {};
}

async function connect(authProvider) {
  // A transport can only start once; after an authorization redirect, a fresh one is built.
  for (let attempt = 0; attempt < 3; attempt++) {
    const client = new Client({ name: "sdk-reference-client", version: "1.0.0" }, { capabilities: capabilities() });
    if (scenario.startsWith("elicitation")) {
      // Accept with no fields: the SDK fills in the schema's defaults (applyDefaults).
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: {} }));
    }
    const transport = new StreamableHTTPClientTransport(serverUrl, authProvider ? { authProvider } : {});
    try {
      await client.connect(transport);
      return client;
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !authProvider?.code) throw error;
      await transport.finishAuth(authProvider.code);
      authProvider.code = undefined;
    }
  }
  throw new Error("authorization did not complete after 3 attempts");
}

let provider;
if (scenario === "auth/client-credentials-basic") {
  provider = new ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret });
} else if (scenario === "auth/client-credentials-jwt") {
  provider = new PrivateKeyJwtProvider({
    clientId: context.client_id,
    privateKey: context.private_key_pem,
    algorithm: context.signing_algorithm ?? "ES256",
  });
} else if (scenario.startsWith("auth/")) {
  provider = new HeadlessProvider(
    context.client_id
      ? { client_id: context.client_id, client_secret: context.client_secret, redirect_uris: [REDIRECT] }
      : undefined,
  );
}

const client = await connect(provider);
try {
  await callScenarioTools({
    listTools: () => client.listTools(),
    callTool: async (name, args) => {
      try {
        return await client.callTool({ name, arguments: args });
      } catch (error) {
        // Step-up: the SDK transport re-authorizes on 403 insufficient_scope and throws
        // UnauthorizedError once it has a new code; finish and retry once.
        if (!(error instanceof UnauthorizedError) || !provider?.code) throw error;
        await client.transport.finishAuth(provider.code);
        provider.code = undefined;
        return client.callTool({ name, arguments: args });
      }
    },
  });
} finally {
  await client.close();
}
