// How the conformance app signs in, through glove-mcp/oauth only: machine grants for the
// client-credentials, workload-identity and cross-app-access scenarios; for the others, one of the
// README's two configurations. "auth-provider": the terminal flow (runMcpOAuth) first, then an
// McpOAuthProvider for the 401s and 403 step-ups met later, whose logins the app finishes itself
// (completeMcpOAuth on the callback). "access-token": connectMcp's getAccessToken reads the store
// runMcpOAuth fills, and every later refusal runs runMcpOAuth again (`scope: requiredScope,
// force: true` for a step-up). The user's browser is played by fetch.
import net from "node:net";
/* global fetch */
import {
  buildClientMetadata,
  ClientCredentialsProvider,
  completeMcpOAuth,
  CrossAppAccessProvider,
  loopbackRedirectUrl,
  McpOAuthProvider,
  MemoryOAuthStore,
  PrivateKeyJwtProvider,
  runMcpOAuth,
  startCallbackListener,
  WorkloadIdentityProvider,
} from "glove-mcp/oauth";
import { headlessAuthorize } from "./scenario-support.mjs";

/** Where this app would serve its Client ID Metadata Document (the URL the suite expects). */
export const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const CROSS_APP = new Set(["auth/cross-app-access-complete-flow", "auth/enterprise-managed-authorization"]);

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A sign-in for one scenario: `authProvider` or `getAccessToken` for connectMcp, `finishLogin(refusal)`
 * after a refusal (`{ requiredScope? }`, or none when no call was refused) resolving true when it
 * logged in again, and `close()`. `configuration`: "auth-provider" or "access-token".
 */
export async function signIn(scenario, context, serverUrl, key, configuration = "auth-provider") {
  const none = { authProvider: undefined, finishLogin: async () => false, close: async () => undefined };
  if (scenario === "auth/client-credentials-basic") {
    return {
      ...none,
      authProvider: new ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret }),
    };
  }
  if (scenario === "auth/client-credentials-jwt") {
    return {
      ...none,
      authProvider: new PrivateKeyJwtProvider({
        clientId: context.client_id,
        privateKey: context.private_key_pem,
        algorithm: context.signing_algorithm ?? "ES256",
      }),
    };
  }
  if (scenario === "auth/wif-jwt-bearer") {
    return {
      ...none,
      authProvider: new WorkloadIdentityProvider({ clientId: context.client_id, assertion: context.valid_jwt }),
    };
  }
  if (CROSS_APP.has(scenario)) {
    const authProvider = new CrossAppAccessProvider({
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idpTokenEndpoint: context.idp_token_endpoint,
      idpClientId: context.idp_client_id,
      idToken: context.idp_id_token,
    });
    return { ...none, authProvider };
  }
  if (!scenario.startsWith("auth/")) return none;
  return configuration === "access-token"
    ? accessTokenSignIn(context, serverUrl, key)
    : interactiveSignIn(context, serverUrl, key);
}

/** What both interactive configurations share: the store, the fixed callback port, the terminal login. */
async function terminalLogin(context, serverUrl, key) {
  const store = new MemoryOAuthStore();
  const preRegisteredClient = context.client_id
    ? { client_id: context.client_id, client_secret: context.client_secret }
    : undefined;
  // One fixed callback port for the first login and every later one, so the registration stays valid.
  const port = await freePort();
  const redirectUrl = loopbackRedirectUrl(port);
  const common = {
    serverUrl,
    store,
    key,
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(preRegisteredClient ? { preRegisteredClient } : {}),
  };
  /** runMcpOAuth from the terminal, the user approving in the browser; `more` adds or overrides options. */
  const login = (more = {}) =>
    runMcpOAuth({
      ...common,
      port,
      log: () => undefined,
      timeoutMs: 10_000,
      openBrowser: async (url) => {
        await fetch(await headlessAuthorize(url, redirectUrl));
      },
      ...more,
    });
  return { store, port, redirectUrl, common, login };
}

/** The README's bearer-token configuration: runMcpOAuth for every login, getAccessToken reads its store. */
async function accessTokenSignIn(context, serverUrl, key) {
  const { store, login } = await terminalLogin(context, serverUrl, key);
  await login(); // verified with a tool list, as by default
  return {
    authProvider: undefined,
    getAccessToken: async () => (await store.get(key)).tokens?.access_token,
    async finishLogin(refusal) {
      if (!refusal) return false;
      await login({ force: true, ...(refusal.requiredScope ? { scope: refusal.requiredScope } : {}) });
      return true;
    },
    close: async () => undefined,
  };
}

async function interactiveSignIn(context, serverUrl, key) {
  const { port, redirectUrl, common, login } = await terminalLogin(context, serverUrl, key);
  await login({ verify: false });

  // Later logins: the provider starts them (onAuthorizationUrl), the app finishes them.
  const listener = await startCallbackListener(port);
  let pending;
  const authProvider = new McpOAuthProvider({
    ...common,
    redirectUrl,
    clientMetadata: buildClientMetadata({ redirectUrl }),
    onAuthorizationUrl: (url) => {
      const callback = listener.waitForCallback({
        expectedState: url.searchParams.get("state") ?? undefined,
        timeoutMs: 10_000,
      });
      pending = (async () => {
        await fetch(await headlessAuthorize(url, redirectUrl)); // the user approves in the browser
        await completeMcpOAuth({ ...common, redirectUrl }, await callback);
      })();
      pending.catch(() => undefined); // awaited by finishLogin
    },
  });
  return {
    authProvider,
    /** Waits for the login the provider began; false when none was begun. */
    async finishLogin() {
      if (!pending) return false;
      const login = pending;
      pending = undefined;
      await login;
      return true;
    },
    close: () => listener.close(),
  };
}
