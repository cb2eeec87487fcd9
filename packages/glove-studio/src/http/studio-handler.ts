import { studioApi, type StudioApiContext } from "../api/studio-api.js";
import { errorJson, json } from "./responses.js";
import { staticFile } from "./static-files.js";

export interface StudioHandlerOptions extends StudioApiContext {
  uiDir: string;
  log: (message: string, error: unknown) => void;
}

/** One request below the studio's root (`segments` after it): the API under "api/", else the built UI. */
export async function handleStudio(
  options: StudioHandlerOptions,
  request: Request,
  segments: string[],
  url: URL,
): Promise<Response> {
  try {
    if (segments[0] === "api") return await studioApi(options, request, segments.slice(1), url);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return json(405, {
        error: { code: "GLOVE_STUDIO_METHOD_NOT_ALLOWED", message: "The studio's pages are read with GET." },
      });
    }
    return (
      (await staticFile(options.uiDir, segments)) ??
      json(404, { error: { code: "GLOVE_STUDIO_NOT_FOUND", message: "No such page." } })
    );
  } catch (error) {
    return errorJson(error, options.log);
  }
}
