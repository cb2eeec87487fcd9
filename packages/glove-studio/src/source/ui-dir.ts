import { fileURLToPath } from "node:url";

/** The UI built into this package (`vite build ui` writes ui-dist beside src and dist). */
export const DEFAULT_UI_DIR = fileURLToPath(new URL("../../ui-dist", import.meta.url));
