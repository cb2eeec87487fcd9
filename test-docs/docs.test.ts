import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLOW_WORK_MS } from "../test-support/timeouts.js";

// The project's documentation is tested like the package READMEs (test-support/readme-examples.ts):
// every ```ts / ```tsx block of docs/**/*.md is written to test-docs/.doctest, type-checked and run,
// so documented examples cannot rot. Blocks that must not run (an API key, a real database) use
// ```ts-norun. The links check keeps every relative link of the docs and READMEs pointing at a file
// of the repository, and no file pointing outside it.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "test-docs", ".doctest");
const RUNS_AT_LEAST = 20; // fewer runnable blocks means pages lost their examples (or the pattern broke)

/** Tracked and new (not ignored) files, repository-relative; docs/api (generated) is ignored by git. */
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file && existsSync(join(root, file)));

const pages = files.filter((file) => file.startsWith("docs/") && file.endsWith(".md")).sort();
const readmes = files.filter((file) => /(^|\/)README\.md$/.test(file) && !file.startsWith("docs/"));

interface Block {
  page: string;
  heading: string;
  code: string;
  file: string;
  /** False for ```ts-norun blocks: type-checked, not run. */
  run: boolean;
}

const blocks: Block[] = [];
const notRun: string[] = [];
for (const page of pages) {
  const text = readFileSync(join(root, page), "utf8");
  for (const match of text.matchAll(/^```(ts|tsx|ts-norun|tsx-norun)\n([\s\S]*?)^```$/gm)) {
    const heading =
      text
        .slice(0, match.index)
        .match(/^#{1,3} (.+)$/gm)
        ?.at(-1)
        ?.replace(/^#+ /, "") ?? "intro";
    const run = !match[1]!.endsWith("-norun");
    if (!run) notRun.push(`${page} (${heading})`);
    const name = `${page
      .replace(/^docs\//, "")
      .replace(/\.md$/, "")
      .replace(/[^\w]+/g, "-")}-${blocks.filter((b) => b.page === page).length + 1}`;
    blocks.push({
      page,
      heading,
      code: match[2]!,
      file: join(outDir, `${name}.${match[1]!.replace("-norun", "")}`),
      run,
    });
  }
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
// Decision records are kept as written, and some only declare a type for the reader; the directive
// shares the first line so the type checker's line numbers stay the page's.
const header = (page: string) =>
  page.startsWith("docs/decisions/")
    ? "/* eslint-disable @typescript-eslint/no-unused-vars -- a declaration for the reader */ "
    : "";
for (const block of blocks) writeFileSync(block.file, `${header(block.page)}${block.code}\nexport {};\n`);

/**
 * Examples that call a real provider run against this local server, which answers the Anthropic
 * Messages API in its streaming wire format (ANTHROPIC_BASE_URL points there; no key, no network).
 */
let provider: Server | undefined;
function anthropicStream(text: string): string {
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return (
    event("message_start", {
      message: {
        id: "msg_docs",
        type: "message",
        role: "assistant",
        model: "claude-docs",
        content: [],
        stop_reason: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    }) +
    event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
    event("content_block_delta", { index: 0, delta: { type: "text_delta", text } }) +
    event("content_block_stop", { index: 0 }) +
    event("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 9 } }) +
    event("message_stop", {})
  );
}
beforeAll(async () => {
  provider = createServer((req, res) => {
    req.resume();
    req.on("end", () =>
      res.writeHead(200, { "content-type": "text/event-stream" }).end(anthropicStream("Hello! Bonjour! Hola!")),
    );
  });
  await new Promise<void>((resolve) => provider!.listen(0, "127.0.0.1", resolve));
  process.env.ANTHROPIC_API_KEY = "docs-test-key";
  process.env.ANTHROPIC_BASE_URL = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_BASE_URL;
  await new Promise((resolve) => provider?.close(resolve));
});

describe("docs/ examples", () => {
  const runnable = blocks.filter((b) => b.run);
  it(`has examples (${blocks.length} type-checked, ${runnable.length} run; ${notRun.length} ts-norun blocks are type-checked only)`, () => {
    console.log(
      `docs/: ${blocks.length} code blocks type-checked, ${runnable.length} run; not run (ts-norun):\n  ${notRun.join("\n  ")}`,
    );
    expect(runnable.length).toBeGreaterThanOrEqual(RUNS_AT_LEAST);
  });

  it("type-check under strict TypeScript", { timeout: SLOW_WORK_MS }, async () => {
    // The packages resolve to their sources (glove-source), so no build is needed; only errors in
    // the examples count (the packages are type-checked by `npm run typecheck`).
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const run = promisify(execFile);
    const output = await run(
      process.execPath,
      [tsc, "-p", join(root, "test-docs", "tsconfig.json"), "--pretty", "false"],
      { cwd: root, maxBuffer: 64 << 20 },
    )
      .then(() => "")
      .catch((error: { stdout?: string }) => error.stdout ?? String(error));
    const ours = output
      .split("\n")
      .filter((line) => line.startsWith(`test-docs${sep}.doctest`) || line.startsWith("test-docs/.doctest"));
    const explained = ours.map((line) => {
      const block = blocks.find((b) => line.includes(relative(root, b.file)));
      return block ? `${line}\n    in ${block.page} (${block.heading})` : line;
    });
    expect(explained.join("\n")).toBe("");
  });

  runnable.forEach((block) => {
    it(`${relative(outDir, block.file)}: ${block.page} (${block.heading}) runs`, async () => {
      await import(/* @vite-ignore */ block.file);
    });
  });
});

describe("links", () => {
  const isLocal = (target: string) => !/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target);

  it.each([...pages, ...readmes])("%s: relative links point to files of the repository", (file) => {
    const text = readFileSync(join(root, file), "utf8").replace(/^```[\s\S]*?^```$/gm, "");
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (!isLocal(target!)) continue;
      const path = decodeURI(target!.replace(/[#?].*$/, ""));
      if (!path) continue;
      const resolved = resolve(root, dirname(file), path);
      if (!resolved.startsWith(root + sep) && resolved !== root) broken.push(`${target} (outside the repository)`);
      else if (!existsSync(resolved)) broken.push(`${target} (no such file)`);
    }
    expect(broken).toEqual([]);
  });

  it("no file of the repository points outside it", () => {
    // The old layout kept a spec, an architecture note and designs in a sibling folder a clone does not have.
    const gone = ["spec", "ARCHITECTURE", "design"].map((name) => `shared/${name}`);
    const offenders: string[] = [];
    for (const file of files) {
      if (file === "package-lock.json" || file.endsWith("/package-lock.json")) continue;
      const full = join(root, file);
      if (!statSync(full).isFile()) continue;
      const text = readFileSync(full, "utf8");
      if (text.includes("\0")) continue; // binary
      text.split("\n").forEach((line, i) => {
        for (const name of gone) if (line.includes(name)) offenders.push(`${file}:${i + 1}: ${name}`);
        // ../shared/… is fine where it names a folder of the repository (glove-core's models/shared).
        for (const [path] of line.matchAll(/(?:\.\.\/)+shared\/[\w./-]*/g)) {
          const resolved = resolve(root, dirname(file), path);
          if (!resolved.startsWith(root + sep) || !existsSync(dirname(resolved)))
            offenders.push(`${file}:${i + 1}: ${path}`);
        }
      });
    }
    expect(offenders).toEqual([]);
  });
});
