/** `npx glove-studio`: the studio over a glove-server app's storage, on 127.0.0.1. */
import { startStudio } from "../standalone/start-studio.js";
import { openStorage } from "./open-storage.js";
import { parseCli, USAGE, UsageError } from "./parse-args.js";

async function main(): Promise<void> {
  const options = parseCli(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const { storage, label } = await openStorage(options.source);
  const studio = await startStudio({ storage, port: options.port, source: label }).catch(async (error: unknown) => {
    await storage.close?.();
    if ((error as { code?: string }).code === "EADDRINUSE")
      throw new UsageError(`Port ${options.port} is in use; try --port ${options.port + 1}.`);
    throw error;
  });
  console.log(`Glove Studio: open ${studio.url} (reading ${label}; Ctrl-C stops)`);
  const stop = () =>
    void studio
      .close()
      .then(() => storage.close?.())
      .then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  if (UsageError.isInstance(error)) {
    console.error(`glove-studio: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error("glove-studio:", error);
  process.exit(1);
});
