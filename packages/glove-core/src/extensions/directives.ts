import type { AgentControls, ContentPart, HookHandler, Message, ModelPromptResult } from "../types/index.js";
import { ExtensionError, throwIfAborted } from "../errors.js";
import type { EventBus } from "../runtime/event-bus.js";
import { formatSkillMessage } from "./skill-message.js";
import type { SkillRegistry } from "./skill-registry.js";
import { parseTokens, placeholderFor, replaceTokens } from "./tokens.js";

export interface DirectiveOutcome {
  /** The text the stored user message carries (placeholders, rewrites applied). */
  text: string;
  /** Synthetic user messages from /skill directives, stored before the user's. */
  skillMessages: Message[];
  /** A hook ended the turn: this is returned and the model is not called. */
  shortCircuit?: Message | ModelPromptResult;
}

/**
 * Binds `/name` tokens to hooks (first) or skills, runs hooks in token order and
 * user-invoked skills after them. Handlers run before anything is stored, so a
 * failing one leaves the conversation untouched (it throws ExtensionError).
 */
export async function runDirectives(
  rawText: string,
  hooks: ReadonlyMap<string, HookHandler>,
  skills: SkillRegistry,
  controls: AgentControls,
  bus: EventBus,
  signal?: AbortSignal,
): Promise<DirectiveOutcome> {
  const bound = parseTokens(rawText).flatMap((t) => {
    const kind = hooks.has(t.name) ? ("hook" as const) : skills.has(t.name) ? ("skill" as const) : undefined;
    return kind ? [{ ...t, kind }] : [];
  });
  if (bound.length === 0) return { text: rawText, skillMessages: [] };

  let working = replaceTokens(
    rawText,
    bound.map((t) => ({ ...t, replacement: null })),
  );
  let rewritten = false;
  for (const token of bound) {
    if (token.kind !== "hook") continue;
    throwIfAborted(signal);
    await bus.emit("hook_invoked", { name: token.name });
    let result;
    try {
      result = await hooks.get(token.name)!({ name: token.name, rawText, parsedText: working, controls, signal });
    } catch (error) {
      throw new ExtensionError("hook", token.name, error);
    }
    if (result?.rewriteText !== undefined) {
      working = result.rewriteText;
      rewritten = true;
    }
    if (result?.shortCircuit) {
      const shortCircuit = "message" in result.shortCircuit ? result.shortCircuit.message : result.shortCircuit.result;
      return { ...storedText(rawText, bound, working, rewritten), skillMessages: [], shortCircuit };
    }
  }

  const skillMessages: Message[] = [];
  for (const token of bound) {
    if (token.kind !== "skill") continue;
    throwIfAborted(signal);
    await bus.emit("skill_invoked", { name: token.name, source: "user" });
    let output: string | ContentPart[];
    try {
      output = await skills
        .get(token.name)!
        .handler({ name: token.name, parsedText: working, source: "user", controls });
    } catch (error) {
      throw new ExtensionError("skill", token.name, error);
    }
    skillMessages.push(formatSkillMessage(token.name, output));
  }
  return { ...storedText(rawText, bound, working, rewritten), skillMessages };
}

function storedText(
  rawText: string,
  bound: Array<{ name: string; start: number; end: number; kind: "hook" | "skill" }>,
  working: string,
  rewritten: boolean,
): { text: string } {
  if (!rewritten) {
    const text = replaceTokens(
      rawText,
      bound.map((t) => ({ ...t, replacement: placeholderFor(t.kind, t.name) })),
    );
    return { text };
  }
  // A rewrite replaces the text wholesale; the placeholders still record what ran.
  const markers = bound.map((t) => placeholderFor(t.kind, t.name)).join(" ");
  return { text: working ? `${markers} ${working}` : markers };
}
