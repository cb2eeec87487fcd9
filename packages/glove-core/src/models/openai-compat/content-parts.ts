import type { ContentPart } from "../../types/index.js";
import { partUrl } from "../shared/messages.js";

/** One part of a user message in chat-completions form. */
export function toChatPart(part: ContentPart): Record<string, unknown> {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text ?? "" };
    case "image": {
      const url = partUrl(part);
      return url ? { type: "image_url", image_url: { url } } : { type: "text", text: "[image without source]" };
    }
    case "document": {
      const source = part.source;
      if (source?.data !== undefined) {
        return {
          type: "file",
          file: {
            filename: filenameFor(source.media_type),
            file_data: `data:${source.media_type};base64,${source.data}`,
          },
        };
      }
      return { type: "text", text: `[document: ${source?.url ?? "no source"}]` };
    }
    default:
      return { type: "text", text: `[${part.type} omitted: not supported by chat completions]` };
  }
}

function filenameFor(mediaType: string): string {
  const ext = mediaType.split("/")[1]?.split(/[+;]/)[0] ?? "bin";
  return `document.${ext}`;
}
