/**
 * The Vue chat: the web demo's server (its bistro agent, glove-server under /api, the demo cookie)
 * serving this example's Vue page at "/" instead of the React one. Nothing of the agent is copied:
 * `startWebChat` is the web demo's, and it takes the folder of the page to serve.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWebChat, type WebChat, type WebChatOptions } from "glove-example-web-chat";

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** examples/vue-chat/ui/dist: what `vite build` of the Vue UI writes (git-ignored). */
export const VUE_UI_DIR = join(PACKAGE_DIR, "ui", "dist");

/** examples/vue-chat/.glove: this example's SQLite file (git-ignored), apart from the React demo's. */
export const VUE_DATA_DIR = join(PACKAGE_DIR, ".glove");

/** The web demo's server with the Vue page; every option is `startWebChat`'s (default port 8788). */
export function startVueChat(options: WebChatOptions = {}): Promise<WebChat> {
  return startWebChat({ port: 8788, dataDir: VUE_DATA_DIR, uiDir: VUE_UI_DIR, ...options });
}
