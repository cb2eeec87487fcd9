import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { describeReadmeExamples } from "../../../test-support/readme-examples.js";
import { startProtectedMcp, type ProtectedMcp } from "./support/oauth-server.js";
import { startEverything, type RunningServer } from "./support/servers.js";

// The OAuth example's server: server-everything behind the SDK's auth router, on loopback.
let everything: RunningServer | undefined;
let protectedMcp: ProtectedMcp | undefined;
beforeAll(async () => {
  everything = await startEverything("streamableHttp");
  protectedMcp = await startProtectedMcp({ upstream: new URL(everything.url), discovery: "www-authenticate" });
  process.env.NOTION_MCP_URL = protectedMcp.url;
});
afterAll(async () => {
  delete process.env.NOTION_MCP_URL;
  await protectedMcp?.stop();
  await everything?.stop();
});

describeReadmeExamples({
  title: "glove-mcp README examples",
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  atLeast: 2,
});
