/**
 * `vite build` of the web UI → ui/dist, which the web-chat server serves at "/".
 * Workspace packages (glove-react, glove-core) are bundled from their TypeScript sources
 * (the "glove-source" export condition), so the UI needs no package build of its own.
 */
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),

  base: "/",
  plugins: [react()],
  resolve: { conditions: ["glove-source", "module", "browser", "development|production"] },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1000 },
  logLevel: "warn",
});
