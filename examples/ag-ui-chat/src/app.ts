/**
 * The ag-ui-chat example: web-chat's Glove Bistro agent and server (glove-server under /api, the
 * page at /), with an assistant-ui page instead of the glove-react one. The page reaches the agent
 * through glove-server's AG-UI route, `/api/ag-ui`.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWebChat, type WebChat, type WebChatOptions } from "glove-example-web-chat";

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** examples/ag-ui-chat/.glove: the embedded SQLite file (git-ignored). */
export const DEFAULT_DATA_DIR = join(PACKAGE_DIR, ".glove");

/** examples/ag-ui-chat/ui/dist: what `vite build` of the page writes (git-ignored). */
export const DEFAULT_UI_DIR = join(PACKAGE_DIR, "ui", "dist");

/** Where the page's HttpAgent posts its runs (below the server's /api). */
export const AG_UI_PATH = "/api/ag-ui";

/** Starts the bistro server with the assistant-ui page; options as web-chat's (port, dataDir, uiDir…). */
export function startAgUiChat(options: WebChatOptions = {}): Promise<WebChat> {
  return startWebChat({ dataDir: DEFAULT_DATA_DIR, uiDir: DEFAULT_UI_DIR, ...options });
}
