/** `npm run vue-chat` (at the root) or `npm start -w glove-example-vue-chat`: the bistro agent and its Vue UI on http://127.0.0.1:8788 (PORT to change). */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { VUE_UI_DIR, startVueChat } from "./app.js";

const port = process.env.PORT ? Number(process.env.PORT) : 8788;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}.`);
  process.exit(1);
}

let chat;
try {
  chat = await startVueChat({ port });
} catch (error) {
  const code = (error as { code?: string }).code;
  console.error(code === "EADDRINUSE" ? `Port ${port} is in use; try PORT=8789 npm run vue-chat.` : error);
  process.exit(1);
}

console.log(`Glove Bistro, Vue page: open ${chat.url}`);
if (!existsSync(join(VUE_UI_DIR, "index.html")))
  console.log("(The UI is not built: `npm run vue-chat` at the repo root builds it; the API works meanwhile.)");
console.log(
  chat.model.kind === "live"
    ? `Model: ${chat.model.provider} (from the environment).`
    : `Model: the offline walkthrough. ${chat.model.reason.replace(/; playing the offline walkthrough\.$/, ".")}`,
);
console.log("Ctrl-C stops (a form or permission prompt keeps waiting for the next start).");

let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  void chat.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
