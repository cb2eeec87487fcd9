import type { UIMessage, UIMessageChunk } from "ai";

/** Every chunk of a transport's reply stream, as useChat would read them. */
export async function readAll(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

/** A user message as useChat holds it. */
export const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
