import type { ContentPart, Message } from "../types/index.js";

/** Text parts of a handler's output, joined. */
export function joinText(output: string | ContentPart[]): string {
  if (typeof output === "string") return output;
  return output
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n");
}

/** The synthetic user message a user-invoked skill becomes. */
export function formatSkillMessage(name: string, output: string | ContentPart[]): Message {
  const message: Message = { sender: "user", text: joinText(output), is_skill_injection: true };
  if (typeof output !== "string") {
    const media = output.filter((p) => p.type !== "text");
    if (media.length) message.content = media;
  }
  if (!message.text && !message.content) message.text = `[skill ${name} returned nothing]`;
  return message;
}
