/**
 * `vite build ui` → dist/ui, the static files the studio serves (standalone at "/", mounted at
 * "<basePath>/studio/"): relative URLs, no inline script or style, so its strict CSP holds.
 */
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [react()],
  resolve: { conditions: ["glove-source", "module", "browser", "development|production"] },
  build: {
    outDir: fileURLToPath(new URL("../dist/ui", import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  logLevel: "warn",
});
