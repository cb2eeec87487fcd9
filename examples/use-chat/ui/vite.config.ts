/**
 * `vite build ui` → ui/dist, which the example server serves at "/". Workspace packages
 * (glove-react) are bundled from their TypeScript sources (the "glove-source" condition).
 */
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  plugins: [react()],
  resolve: { conditions: ["glove-source", "module", "browser", "development|production"] },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  logLevel: "warn",
});
