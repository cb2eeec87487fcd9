import type { ContentPart, GloveConfig } from "./types/index.js";
import { ConfigurationError } from "./errors.js";

/** Checks, with messages that say what to pass, for what users hand to a Glove. */

export function requireExtensionName(name: unknown, method: string): string {
  if (typeof name !== "string" || !/^[A-Za-z][\w-]*$/.test(name)) {
    throw new ConfigurationError(
      `${method}() needs a name that starts with a letter and holds only letters, digits, "_" or "-"; got ${JSON.stringify(name)}.`,
    );
  }
  return name;
}

export function validateConfig(config: GloveConfig): void {
  const missing: string[] = [];
  if (!config) throw new ConfigurationError("new Glove(config) needs a config object.");
  if (!config.model) missing.push("model (a ModelAdapter, e.g. createAdapter({ provider }))");
  if (typeof config.systemPrompt !== "string") missing.push("systemPrompt (a string)");
  if (missing.length) throw new ConfigurationError(`new Glove() is missing: ${missing.join("; ")}.`);
  checkOptionalParts(config);
}

/** The optional parts have defaults, so only a value of the wrong kind is refused. */
function checkOptionalParts(config: GloveConfig): void {
  const compaction: unknown = config.compaction_config;
  if (compaction !== undefined && (typeof compaction !== "object" || compaction === null)) {
    throw new ConfigurationError(
      `new Glove(): compaction_config must be an object like { compaction_instructions: "..." }, or left out for the defaults; got ${describeValue(compaction)}.`,
    );
  }
  const instructions = config.compaction_config?.compaction_instructions;
  if (instructions !== undefined && typeof instructions !== "string") {
    throw new ConfigurationError(
      `new Glove(): compaction_config.compaction_instructions must be a string, or left out for DEFAULT_COMPACTION_INSTRUCTIONS; got ${describeValue(instructions)}.`,
    );
  }
  const display: unknown = config.displayManager;
  if (display !== undefined && (typeof display !== "object" || display === null)) {
    throw new ConfigurationError(
      `new Glove(): displayManager must be a DisplayManagerAdapter (e.g. new Displaymanager()), or left out for a fresh one; got ${describeValue(display)}.`,
    );
  }
}

export function toUserInput(request: string | ContentPart[]): { text: string; content: ContentPart[] } {
  if (typeof request === "string") return { text: request, content: [] };
  if (!Array.isArray(request)) {
    throw new ConfigurationError(
      `processRequest() takes a string or an array of ContentParts; got ${describeValue(request)}.`,
    );
  }
  request.forEach((part, i) => {
    if (typeof part !== "object" || part === null || typeof (part as { type?: unknown }).type !== "string") {
      throw new ConfigurationError(
        `processRequest(): request[${i}] must be a ContentPart like { type: "text", text }; got ${describeValue(part)}.`,
      );
    }
    if (part.type === "text" && typeof part.text !== "string") {
      throw new ConfigurationError(
        `processRequest(): request[${i}].text must be a string for a "text" part; got ${describeValue(part.text)}.`,
      );
    }
  });
  const text = request
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n");
  return { text, content: request.filter((p) => p.type !== "text") };
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object"
    ? "an object"
    : `${typeof value} ${JSON.stringify(value)?.slice(0, 40) ?? ""}`.trim();
}
