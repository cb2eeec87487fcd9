import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager } from "glove-core";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  bridgeMcpTools,
  connectMcp,
  McpInsufficientScopeError,
  mountMcp,
  type ConnectMcpOptions,
  type McpCatalogueEntry,
} from "glove-mcp";
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "glove-mcp/oauth";
import { TestAdapter } from "./support/adapter.js";
import { startMachineAuth, startScopedMcp, type MachineAuth } from "./support/machine-auth-server.js";
import { scriptedGlove } from "./support/scripted-glove.js";
import { startRawServer, type SdkHttpServer } from "./support/sdk-http-server.js";

let auth: MachineAuth;
let mcp: SdkHttpServer;
const keys = generateKeyPairSync("ec", { namedCurve: "P-256" });

beforeAll(async () => {
  auth = await startMachineAuth();
  auth.clients.set("worker", { secret: "s3cret", allowedScopes: ["mcp", "admin"] });
  auth.clients.set("reader", { secret: "r3ad", allowedScopes: ["mcp"] });
  auth.clients.set("signer", {
    publicKey: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    allowedScopes: ["mcp", "admin"],
  });
  mcp = await startScopedMcp(
    auth,
    () => {
      const server = new McpServer({ name: "ops", version: "1.0.0" });
      server.registerTool("status", { description: "Read status" }, () => ({
        content: [{ type: "text", text: "all good" }],
      }));
      server.registerTool("restart", { description: "Restart (admin)" }, () => ({
        content: [{ type: "text", text: "restarted" }],
      }));
      return server;
    },
    { restart: "admin" },
  );
});
afterAll(async () => {
  await mcp?.stop();
  await auth?.stop();
});

const entry = (): McpCatalogueEntry => ({ id: "ops", name: "Ops", description: "operations", url: mcp.url });

async function callBoth(options: ConnectMcpOptions) {
  const connection = await connectMcp(entry(), options);
  try {
    const folds = bridgeMcpTools(connection, true);
    const run = (name: string) => folds.find((f) => f.name === name)!.do({}, new Displaymanager(), undefined as never);
    return { status: await run("ops__status"), restart: await run("ops__restart") };
  } finally {
    await connection.close();
  }
}

describe("machine-to-machine grants as authProvider", () => {
  it("client credentials: gets a token without a browser, and steps up to the challenged scope", async () => {
    const from = auth.tokenRequests.length;
    const provider = new ClientCredentialsProvider({
      clientId: "worker",
      clientSecret: "s3cret",
      scope: "mcp",
      expectedIssuer: auth.issuer,
    });
    const { status, restart } = await callBoth({ authProvider: provider });
    expect(status).toMatchObject({ status: "success", data: "all good" });
    expect(restart).toMatchObject({ status: "success", data: "restarted" });
    const asked = auth.tokenRequests.slice(from);
    expect(asked.map((r) => [r.clientId, r.scope])).toEqual([
      ["worker", "mcp"],
      ["worker", "mcp admin"],
    ]);
    expect(asked.every((r) => r.method.startsWith("client_secret_"))).toBe(true);
  });

  it("private-key JWT: authenticates with a signed assertion", async () => {
    const from = auth.tokenRequests.length;
    const provider = new PrivateKeyJwtProvider({
      clientId: "signer",
      privateKey: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      algorithm: "ES256",
      scope: "mcp",
      expectedIssuer: auth.issuer,
    });
    const { status, restart } = await callBoth({ authProvider: provider });
    expect(status).toMatchObject({ status: "success" });
    expect(restart).toMatchObject({ status: "success" });
    expect(auth.tokenRequests.slice(from).map((r) => r.method)).toEqual(["private_key_jwt", "private_key_jwt"]);
  });

  it("a step-up the authorization server refuses becomes a clean insufficient_scope result", async () => {
    const provider = new ClientCredentialsProvider({
      clientId: "reader",
      clientSecret: "r3ad",
      scope: "mcp",
      expectedIssuer: auth.issuer,
    });
    const { status, restart } = await callBoth({ authProvider: provider });
    expect(status).toMatchObject({ status: "success" });
    expect(restart).toMatchObject({
      status: "error",
      message: "insufficient_scope",
      data: { requiredScope: "mcp admin" },
    });
    expect(JSON.stringify(restart)).not.toMatch(/html|upstream/i);
  });

  it("mountMcp takes the provider from adapter.getAuthProvider", async () => {
    const adapter = new TestAdapter();
    adapter.active.add("ops");
    const withProvider = Object.assign(adapter, {
      getAuthProvider: () =>
        new ClientCredentialsProvider({ clientId: "worker", clientSecret: "s3cret", expectedIssuer: auth.issuer }),
    });
    const { glove } = scriptedGlove([], { storeName: "m2m" });
    const mount = await mountMcp(glove, { adapter: withProvider, entries: [entry()] });
    try {
      expect(mount.failed).toEqual([]);
      expect(mount.session.toolNames("ops")).toEqual(["ops__status", "ops__restart"]);
      expect(adapter.tokenRequests).toEqual([]);
    } finally {
      await mount.unmount();
    }
  });
});

describe("403 insufficient_scope with a plain bearer token", () => {
  async function readerToken(): Promise<string> {
    const response = await fetch(`${auth.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "reader",
        client_secret: "r3ad",
        scope: "mcp",
      }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  }

  it("reaches the model as a clean tool error naming the scope, not the server's body", async () => {
    const token = await readerToken();
    const { status, restart } = await callBoth({ getAccessToken: async () => token });
    expect(status).toMatchObject({ status: "success" });
    expect(restart).toEqual({
      status: "error",
      message: "insufficient_scope",
      data: { requiredScope: "mcp admin", instruction: expect.stringContaining('scope "mcp admin"') },
    });
  });

  it("is a typed McpInsufficientScopeError when the handshake itself is refused", async () => {
    // A server that scopes even initialize: every request answers 403 insufficient_scope.
    const strict = await startRawServer((req, res) => {
      req.resume();
      res
        .writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope", scope="mcp"' })
        .end("<h1>Forbidden</h1>");
    });
    try {
      const error = await connectMcp({ ...entry(), url: strict.url }, { getAccessToken: async () => "t" }).catch(
        (e: unknown) => e,
      );
      expect(McpInsufficientScopeError.isInstance(error)).toBe(true);
      expect((error as McpInsufficientScopeError).requiredScope).toBe("mcp");
      expect((error as Error).message).toMatch(/Authorize again/);
      expect(strict.requests).toEqual(["POST /mcp"]);
    } finally {
      await strict.stop();
    }
  });
});
