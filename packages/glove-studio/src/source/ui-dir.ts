import { fileURLToPath } from "node:url";

/** The UI built into this package (`vite build ui` writes dist/ui; the same path from src/ and dist/). */
export const DEFAULT_UI_DIR = fileURLToPath(new URL("../../dist/ui", import.meta.url));
