import { HttpError, listenNode } from "glove-server";
import { handleStudio } from "../http/studio-handler.js";
import { checkLoopbackHost } from "../http/loopback-host.js";
import { errorJson } from "../http/responses.js";
import { inspectorOf } from "../source/inspector-of.js";
import { DEFAULT_UI_DIR } from "../source/ui-dir.js";
import type { RunningStudio, StartStudioOptions } from "../types/studio.js";

export const DEFAULT_PORT = 4983;

const log = (message: string, error: unknown) => console.error(message, error);

/**
 * The standalone studio on node:http, bound to 127.0.0.1: it reads the storage (no answering or
 * aborting — see the package README for why) and serves the UI at "/".
 */
export async function startStudio(options: StartStudioOptions): Promise<RunningStudio> {
  const data = { storage: options.storage, inspector: inspectorOf(options.storage, options.inspector) };
  const info = { mode: "standalone" as const, canAct: false, source: options.source ?? "storage" };
  const handler = { data, info, uiDir: options.uiDir ?? DEFAULT_UI_DIR, log };
  const listening = await listenNode(
    async (request) => {
      try {
        checkLoopbackHost(request);
      } catch (error) {
        return errorJson(error, log);
      }
      const url = new URL(request.url);
      let segments: string[];
      try {
        segments = url.pathname
          .split("/")
          .filter((s) => s !== "")
          .map((s) => decodeURIComponent(s));
      } catch {
        return errorJson(new HttpError(400, "GLOVE_STUDIO_BAD_PATH", "The path is not valid percent-encoding."), log);
      }
      return handleStudio(handler, request, segments, url);
    },
    { port: options.port ?? DEFAULT_PORT, host: "127.0.0.1" },
  );
  return { url: `${listening.url}/`, port: listening.port, close: () => listening.close() };
}
