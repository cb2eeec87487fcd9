import { expect } from "vitest";
import { GloveError } from "glove-core";

/** The words a refusal's next step starts with ("Pass another session id", "upgrade this one", …). */
const NEXT_STEP = /\b(Pass|pass|Give|Create|Install|Run|Restore|upgrade)\b/;

/**
 * Checks a store's refusal against decision 0011's shape: a typed GloveError whose message starts
 * with who refused (`begins`, e.g. `SqliteStore session "chat-1": `), then says what is wrong and
 * what to do next, and ends with "Nothing was changed." Returns the message.
 */
export function expectRefusal(thrown: unknown, begins: string, code?: string): string {
  expect(GloveError.isInstance(thrown), `not a GloveError: ${String(thrown)}`).toBe(true);
  const { message } = thrown as GloveError;
  expect(message.startsWith(begins), message).toBe(true);
  expect(message).toMatch(/[^.]\. Nothing was changed\.$/);
  const said = message.slice(begins.length, -" Nothing was changed.".length);
  expect(said, message).toMatch(NEXT_STEP);
  if (code !== undefined) expect((thrown as GloveError).code).toBe(code);
  return message;
}

/** What `act` threw (failing when it returned). */
export function thrownBy(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal, but the call returned");
}

/** What the promise `act` returns rejected with (failing when it resolved). */
export async function rejectionOf(act: () => Promise<unknown>): Promise<unknown> {
  try {
    await act();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal, but the promise resolved");
}

/** Session ids every store refuses, with how each is shown in the message. */
export const INVALID_SESSION_IDS: ReadonlyArray<[label: string, id: unknown, shown: string]> = [
  ["empty", "", ""],
  ["not a string", 7, "7"],
  ["with NUL", "a\u0000b", "a\\u0000b"],
  ["with a lone surrogate", "a\ud800", "a\\ud800"],
  ["longer than 1024 UTF-8 bytes", "é".repeat(600), `${"é".repeat(80)}…`],
];
