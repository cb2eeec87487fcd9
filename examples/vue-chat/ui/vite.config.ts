/**
 * `vite build` of the Vue UI → ui/dist, which the vue-chat server serves at "/". The components are
 * render functions in .ts, so no Vue plugin (SFC compiler) is needed. Workspace packages (glove-vue,
 * glove-client, glove-core) are bundled from their TypeScript sources ("glove-source").
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  resolve: { conditions: ["glove-source", "module", "browser", "development|production"] },
  // Vue's esm-bundler build reads these compile-time flags (no Options API, no devtools in production).
  define: {
    __VUE_OPTIONS_API__: "false",
    __VUE_PROD_DEVTOOLS__: "false",
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
  },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1000 },
  logLevel: "warn",
});
