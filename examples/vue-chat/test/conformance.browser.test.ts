/**
 * One conformance suite, every binding: the web demo's React page (glove-react) and this example's
 * Vue page (glove-vue), each on its own web-demo server (the same agent, a scripted model with
 * gates, a temporary data folder), driven through the same cases (support/conformance.ts) in ONE
 * Chromium launch. A case one page cannot pass is a defect of that binding, not a skip.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startWebChat, type WebChat } from "glove-example-web-chat";
import { browserTestHooks, buildUi, launchChromium } from "../../web-chat/test/support/browser.js";
import { openPage } from "../../web-chat/test/support/page.js";
import { Gates, sceneAgent } from "../../web-chat/test/support/scenarios.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { CONFORMANCE_CASES, type ConformanceTarget } from "./support/conformance.js";

const VUE_UI_ROOT = fileURLToPath(new URL("../ui", import.meta.url));

/** The pages under test: the ui folder Vite builds (undefined: the web demo's React page). */
const BINDINGS = [
  { binding: "react", root: undefined, title: "Glove Bistro · web chat" },
  { binding: "vue", root: VUE_UI_ROOT, title: "Glove Bistro · Vue chat" },
] as const;

let dir: string;
let browser: Browser;
const servers = new Map<string, WebChat>();
const pageErrors: Error[] = [];
const targets = new Map<string, ConformanceTarget>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "glove-conformance-"));
  const built = BINDINGS.map(({ binding, root }) =>
    buildUi(join(dir, binding, "ui"), root ? { root } : {}).then(() => binding),
  );
  [browser] = await Promise.all([launchChromium(), ...built]);
  for (const { binding, title } of BINDINGS) {
    const gates = new Gates();
    const start = (port = 0) =>
      startWebChat({
        port,
        dataDir: join(dir, binding, "data"),
        uiDir: join(dir, binding, "ui"),
        token: `conformance-${binding}`,
        env: {},
        agent: sceneAgent(gates),
      });
    let chat = await start();
    servers.set(binding, chat);
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    context.setDefaultTimeout(PROMPT_WAIT_MS);
    const open = async (url = chat.url) => {
      const page = await openPage(context, url, pageErrors);
      // The binding's own page, not the other one (both servers are the web demo's).
      expect(await page.title()).toBe(title);
      return page;
    };
    targets.set(binding, {
      binding,
      gates,
      get chat() {
        return chat;
      },
      open,
      async restart(page) {
        const port = chat.port;
        await chat.close();
        await page.locator('[data-testid="connection"][data-state="offline"]').waitFor();
        chat = await start(port);
        servers.set(binding, chat);
      },
    });
  }
}, SLOW_WORK_MS);

browserTestHooks(
  pageErrors,
  async () => {
    await browser?.close();
    await Promise.all([...servers.values()].map((server) => server.close()));
  },
  () => dir,
);

for (const { binding } of BINDINGS) {
  describe(`conformance: the ${binding} page`, () => {
    for (const test of CONFORMANCE_CASES) it(test.name, () => test.run(targets.get(binding)!), SLOW_WORK_MS);
  });
}
