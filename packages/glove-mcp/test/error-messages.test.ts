import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { endSentence } from "../src/sentence.js";

// No error message of glove-mcp ends a sentence twice (".."). Messages that end with words from
// elsewhere (another error's message, a server's answer), which may already close with a full
// stop, go through endSentence; the runtime case is in step-up-access-token.test.ts.
const srcDir = fileURLToPath(new URL("../src", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** A template literal closing with a full stop right after a value whose end the code does not know. */
const FOREIGN_THEN_STOP =
  /\$\{[^{}`]*(?:messageOf\(|\.message\b|\bwhy\b|\btext\b|\bdetail\b|\breason\b|error_description)[^{}`]*\}\.`/;

describe("error messages", () => {
  it("never write a double full stop in src", () => {
    const found = sourceFiles(srcDir).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ line, where: `${file.slice(srcDir.length + 1)}:${i + 1}` }))
        .filter(({ line }) => /[^.]\.\.[`"']/.test(line) || FOREIGN_THEN_STOP.test(line))
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it("endSentence closes a sentence once, whatever the text ended with", () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom("", ".", "!", "?", " ", ". ", ")"), (text, end) => {
        const closed = endSentence(text + end);
        expect(closed).toMatch(/[.!?]$/);
        if (!/\.\.$/.test((text + end).trimEnd())) expect(closed).not.toMatch(/\.\.$/);
        expect(closed.startsWith((text + end).trimEnd())).toBe(true);
        expect(closed.length - (text + end).trimEnd().length).toBeLessThanOrEqual(1);
      }),
    );
    expect(endSentence("the server refused the token.")).toBe("the server refused the token.");
    expect(endSentence("HTTP 403")).toBe("HTTP 403.");
  });
});
