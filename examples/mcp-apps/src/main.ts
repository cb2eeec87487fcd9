/** `npm start -w glove-example-mcp-apps`: the MCP Apps demo on http://127.0.0.1:8788 (PORT to change), offline. */
import { startMcpAppsDemo } from "./app.js";

const port = process.env.PORT ? Number(process.env.PORT) : 8788;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}.`);
  process.exit(1);
}
const demo = await startMcpAppsDemo({ port });
console.log(`MCP Apps demo: open ${demo.url} and ask for "the time" or "the budget". Ctrl-C stops.`);
const stop = () => void demo.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
