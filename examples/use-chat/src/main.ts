/** `npm start -w glove-example-use-chat`: the useChat page and its glove-server on http://127.0.0.1:8788 (PORT to change). */
import { startUseChat } from "./app.js";

const port = process.env.PORT ? Number(process.env.PORT) : 8788;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}.`);
  process.exit(1);
}
const app = await startUseChat({ port });
console.log(
  `useChat on glove-server: open ${app.url} (offline model: ask for "the weather in Paris" or to "email ada").`,
);
const stop = () => void app.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
