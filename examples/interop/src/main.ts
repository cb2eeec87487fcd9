/** `npm start -w glove-example-interop`: the three pages on http://127.0.0.1:8790 (PORT to change). */
import { PAGES, pageBase, startInterop } from "./app.js";

const port = process.env.PORT ? Number(process.env.PORT) : 8790;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}.`);
  process.exit(1);
}

const app = await startInterop({ port }).catch((error: unknown) => {
  const code = (error as { code?: string }).code;
  console.error(code === "EADDRINUSE" ? `Port ${port} is in use; try PORT=8791.` : error);
  process.exit(1);
});
console.log(`One glove-server, three frontends (offline model): ${app.url}`);
for (const page of PAGES) console.log(`  ${page.title}: ${app.url}${pageBase(page)}`);
console.log(`The API: ${app.url}/api with "authorization: Bearer ${app.token}".`);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void app.close().then(() => process.exit(0)));
