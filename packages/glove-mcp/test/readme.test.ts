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
const ENV = ["NOTION_MCP_URL", "OPS_MCP_URL", "OPS_ISSUER", "OPS_WORKER_SECRET", "OPS_NARROW_TOKEN"];

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
  Object.assign(process.env, {
    OPS_MCP_URL: ops.url,
    OPS_ISSUER: machineAuth.issuer,
    OPS_WORKER_SECRET: "worker-secret",
    OPS_NARROW_TOKEN: "narrow-token",
  });
});
afterAll(async () => {
  for (const name of ENV) delete process.env[name];
  await ops?.stop();
  await machineAuth?.stop();
  await protectedMcp?.stop();
  await everything?.stop();
});

describeReadmeExamples({
  title: "glove-mcp README examples",
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  atLeast: 4,
});
