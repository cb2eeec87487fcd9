/**
 * Builds the Vue benchmark page (bench/vue/page) with Vite — Vue's production build, no plugin
 * (render functions in .ts) — to be served by bench/react's static server.
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export { servePage, type PageServer } from "../react/page-server.js";

const here = dirname(fileURLToPath(import.meta.url));
/** bench/ (this file runs from bench/vue or, compiled, from bench/dist/vue). */
const BENCH_DIR = basename(dirname(here)) === "dist" ? dirname(dirname(here)) : dirname(here);
export const VUE_PAGE_DIR = join(BENCH_DIR, "vue", "page");

export async function buildVuePage(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: false,
    root: VUE_PAGE_DIR,
    mode: "production",
    logLevel: "warn",
    resolve: { conditions: ["glove-source", "module", "browser", "production"] },
    define: {
      __VUE_OPTIONS_API__: "false",
      __VUE_PROD_DEVTOOLS__: "false",
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
    },
    build: { outDir, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 2000 },
  });
}
