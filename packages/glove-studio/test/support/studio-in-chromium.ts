/** A standalone studio over a storage, its UI built fresh, and Chromium to look at it. */
import { rmSync } from "node:fs";
import type { Browser } from "playwright-core";
import type { ServerStorage } from "glove-server";
import { startStudio, type RunningStudio } from "glove-studio";
import { buildStudioUi, launchChromium } from "./studio-browser.js";

export interface StudioInChromium {
  studio: RunningStudio;
  browser: Browser;
  /** Closes the browser and the studio and removes the built UI (the storage stays open). */
  close(): Promise<void>;
}

export async function studioInChromium(storage: ServerStorage, source?: string): Promise<StudioInChromium> {
  const uiDir = await buildStudioUi();
  const studio = await startStudio({ storage, port: 0, uiDir, ...(source !== undefined ? { source } : {}) });
  const browser = await launchChromium();
  return {
    studio,
    browser,
    async close() {
      await browser.close();
      await studio.close();
      rmSync(uiDir, { recursive: true, force: true });
    },
  };
}
