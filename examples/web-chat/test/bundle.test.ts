/**
 * The web UI's production bundle holds no server code: the tools are views on shared schemas
 * (ui/src/renderers.tsx), their `do` stays in src/tools.ts. And the JavaScript a page loads at
 * start carries no Glove loop: server mode never needs it (glove-react loads local mode on demand).
 * Modules are read from the bundle's source maps; strings from the minified code itself.
 */
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUi } from "./support/browser.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

/** Server-only modules: glove-server, its storage and queue drivers, the example's server files (src/shared.ts is for both). */
const SERVER_MODULES = [
  /packages\/glove-(server|sqlite|postgres|mcp)\//,
  /node_modules\/(better-sqlite3|bullmq|ioredis|pg|pg-[a-z]+)\//,
  /web-chat\/src\/(?!shared\.ts$)/,
  /^node:/,
];

/** Strings only the server's code has: the tools' `do` bodies, the agent's prompt and model, node imports. */
const SERVER_TEXT = [
  "Showed the menu:", // show_menu's do
  "Booked a table for", // book_table's do
  "runs on the server", // the stub do the UI used to carry
  "reservation assistant of Glove Bistro", // the system prompt (src/agent.ts)
  "offline-walkthrough", // the offline model (src/agent.ts)
];
const NODE_IMPORT = /(?:from|import)\s*\(?\s*["'`]node:/;

/** glove-core's agent loop (local mode): never needed by a server-mode page at start. */
const LOOP_MODULES =
  /packages\/glove-core\/src\/(glove|glove-parts|runtime\/(agent|executor|prompt-machine)|models\/|plugins\/|extensions\/|stores\/)/;

interface Asset {
  code: string;
  sources: string[];
}

let dir: string;
const assets = new Map<string, Asset>();
let atStart: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "glove-web-chat-bundle-"));
  await buildUi(dir, { sourcemap: true });
  const names = (await readdir(join(dir, "assets"))).filter((file) => file.endsWith(".js"));
  for (const name of names) {
    const map = JSON.parse(await readFile(join(dir, "assets", `${name}.map`), "utf8")) as { sources: string[] };
    assets.set(name, { code: await readFile(join(dir, "assets", name), "utf8"), sources: map.sources });
  }
  // What the browser fetches at start: the entry script and the chunks Vite preloads with it.
  const html = await readFile(join(dir, "index.html"), "utf8");
  atStart = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
}, SLOW_WORK_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("web UI bundle", () => {
  it("holds none of the server's modules, code or node imports", () => {
    expect(assets.size).toBeGreaterThan(0);
    const found: string[] = [];
    for (const [file, asset] of assets) {
      for (const source of asset.sources)
        if (SERVER_MODULES.some((pattern) => pattern.test(source))) found.push(`${file}: ${source}`);
      for (const text of SERVER_TEXT) if (asset.code.includes(text)) found.push(`${file}: "${text}"`);
      if (NODE_IMPORT.test(asset.code)) found.push(`${file}: a node: import`);
    }
    expect(found).toEqual([]);
    // The shared schemas did come along (the views are typed from them): their messages are there.
    expect(
      [...assets.values()].some((asset) => asset.sources.some((source) => source.endsWith("web-chat/src/shared.ts"))),
    ).toBe(true);
  });

  it("loads no Glove loop at start: server mode needs none", () => {
    expect(atStart.length).toBeGreaterThan(0);
    const start = atStart.map((file) => assets.get(file)!);
    const loop = start.flatMap((asset) => asset.sources.filter((source) => LOOP_MODULES.test(source)));
    expect(loop).toEqual([]);
    for (const text of ["show_menu", "reservation_form", "book_table", "Use a 24-hour time like 19:30"]) {
      expect(
        start.some((asset) => asset.code.includes(text)),
        text,
      ).toBe(true);
    }
    // The loop is still there for local mode, in a chunk fetched only when asked for.
    expect(
      [...assets].some(
        ([file, asset]) => !atStart.includes(file) && asset.sources.some((source) => LOOP_MODULES.test(source)),
      ),
    ).toBe(true);
  });
});
