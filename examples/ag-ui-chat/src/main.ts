/** `npm run ag-ui-chat` at the root (or `npm start -w glove-example-ag-ui-chat`): the page on http://127.0.0.1:8788 (PORT to change). */
import { AG_UI_PATH, startAgUiChat } from "./app.js";

const port = process.env.PORT ? Number(process.env.PORT) : 8788;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}.`);
  process.exit(1);
}

const chat = await startAgUiChat({ port }).catch((error: unknown) => {
  const code = (error as { code?: string }).code;
  console.error(code === "EADDRINUSE" ? `Port ${port} is in use; try PORT=8789.` : error);
  process.exit(1);
});
console.log(`Glove Bistro on assistant-ui (AG-UI): open ${chat.url}`);
console.log(
  chat.model.kind === "live"
    ? `Model: ${chat.model.provider} (from the environment).`
    : `Model: the offline walkthrough. ${chat.model.reason}`,
);
console.log(
  `Any AG-UI client can run the agent: POST ${chat.url}${AG_UI_PATH} with "authorization: Bearer ${chat.token}".`,
);

// Ctrl-C: running turns end as "interrupted", questions stay stored for the next start.
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void chat.close().then(() => process.exit(0)));
