/** `npm start` (at the root, or -w glove-example-web-chat): the bistro agent and its UI on http://127.0.0.1:8787 (PORT to change). */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { API_BASE, DEFAULT_UI_DIR, startWebChat } from "./app.js";

const port = process.env.PORT ? Number(process.env.PORT) : 8787;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}.`);
  process.exit(1);
}

let chat;
try {
  chat = await startWebChat({ port });
} catch (error) {
  const code = (error as { code?: string }).code;
  console.error(code === "EADDRINUSE" ? `Port ${port} is in use; try PORT=8788 npm start.` : error);
  process.exit(1);
}

const J = `-H 'content-type: application/json'`;
console.log(`Glove Bistro web chat: open ${chat.url}`);
if (!existsSync(join(DEFAULT_UI_DIR, "index.html")))
  console.log("(The UI is not built: `npm start` at the repo root builds it; the API works meanwhile.)");
console.log(
  chat.model.kind === "live"
    ? `Model: ${chat.model.provider} (from the environment).`
    : `Model: the offline walkthrough. ${chat.model.reason.replace(/; playing the offline walkthrough\.$/, ".")}`,
);
console.log(`
With curl (a demo bearer token; set WEB_CHAT_TOKEN to choose it):
  export API=${chat.url}${API_BASE} AUTH='authorization: Bearer ${chat.token}'
  curl -s -X POST $API/conversations -H "$AUTH" ${J} -d '{}'           # → {"id":"…"}: export ID=…
  curl -N $API/conversations/$ID/events -H "$AUTH"                     # the events (another terminal; keep it open)
  curl -s -X POST $API/conversations/$ID/messages -H "$AUTH" ${J} -d '{"text":"Book a table for two"}'
  curl -s -X POST $API/conversations/$ID/slots/$SLOT -H "$AUTH" ${J} -d '{"resolve":{"name":"Ada","guests":2,"time":"19:30"}}'
                                                                       # SLOT: the id in the form's slot_push event
  curl -s -X POST $API/conversations/$ID/slots/$SLOT -H "$AUTH" ${J} -d '{"resolve":true}'   # then allow book_table
  curl -s -X POST $API/conversations/$ID/abort -H "$AUTH"
  curl -s $API/conversations/$ID -H "$AUTH"                            # the snapshot
Ctrl-C stops (running turns end as "interrupted"; a form or permission prompt keeps waiting for the next start; conversations stay in ${relative(process.cwd(), chat.dataDir) || "."}).`);

let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  void chat.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
