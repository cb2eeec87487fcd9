/** `vite build` of the page → ui/dist, served by the demo at "/"; workspace packages from their sources. */
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
