import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describeReadmeExamples } from "../../../test-support/readme-examples.js";
import { startMachineAuth, startScopedMcp, type MachineAuth } from "./support/machine-auth-server.js";
import { startProtectedMcp, type ProtectedMcp } from "./support/oauth-server.js";
import type { SdkHttpServer } from "./support/sdk-http-server.js";
import { startEverything, type RunningServer } from "./support/servers.js";

// The OAuth example's server: server-everything behind the SDK's auth router, on loopback.
let everything: RunningServer | undefined;
let protectedMcp: ProtectedMcp | undefined;
// The machine-to-machine example's: a client-credentials authorization server and an SDK-built
// server whose `restart` tool needs the "admin" scope.
let machineAuth: MachineAuth | undefined;
let ops: SdkHttpServer | undefined;
// The step-up example's: an authorization-code server and an SDK-built server that lists its tools
// for "mcp:tools" and runs `release` only for "mcp:admin".
let deployAuth: ProtectedMcp | undefined;
let deploy: SdkHttpServer | undefined;
const ENV = ["NOTION_MCP_URL", "OPS_MCP_URL", "OPS_ISSUER", "OPS_WORKER_SECRET", "OPS_NARROW_TOKEN", "DEPLOY_MCP_URL"];

beforeAll(async () => {
  everything = await startEverything("streamableHttp");
  protectedMcp = await startProtectedMcp({ upstream: new URL(everything.url), discovery: "www-authenticate" });
  process.env.NOTION_MCP_URL = protectedMcp.url;

  machineAuth = await startMachineAuth();
  machineAuth.clients.set("worker", { secret: "worker-secret", allowedScopes: ["mcp", "admin"] });
  machineAuth.tokens.set("narrow-token", { clientId: "reader", scopes: ["mcp"] });
  ops = await startScopedMcp(
    machineAuth,
    () => {
      const server = new McpServer({ name: "ops", version: "1.0.0" });
      server.registerTool("restart", { description: "Restart the service" }, () => ({
        content: [{ type: "text", text: "restarted" }],
      }));
      return server;
    },
    { restart: "admin" },
  );
  deployAuth = await startProtectedMcp({ upstream: new URL(everything.url), discovery: "www-authenticate" });
  const issued = deployAuth.provider.tokens;
  deploy = await startScopedMcp(
    { issuer: `${deployAuth.issuer}/`, scopesOf: (token) => issued.get(token)?.scopes },
    () => {
      const server = new McpServer({ name: "deploy", version: "1.0.0" });
      server.registerTool("release", { description: "Release the build" }, () => ({
        content: [{ type: "text", text: "released" }],
      }));
      return server;
    },
    { release: "mcp:admin" },
    { listScope: "mcp:tools" },
  );
  Object.assign(process.env, {
    DEPLOY_MCP_URL: deploy.url,
    OPS_MCP_URL: ops.url,
    OPS_ISSUER: machineAuth.issuer,
    OPS_WORKER_SECRET: "worker-secret",
    OPS_NARROW_TOKEN: "narrow-token",
  });
});
afterAll(async () => {
  for (const name of ENV) delete process.env[name];
  await deploy?.stop();
  await deployAuth?.stop();
  await ops?.stop();
  await machineAuth?.stop();
  await protectedMcp?.stop();
  await everything?.stop();
});

describeReadmeExamples({
  title: "glove-mcp README examples",
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  atLeast: 9,
});
