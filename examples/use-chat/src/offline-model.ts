/**
 * The example's model without an API key: it reads the user's last message and plays a turn —
 * "weather in <city>" calls get_weather, "email <someone>" calls send_email (which asks for
 * permission), anything else is echoed — then words the tool's result. Streamed word by word.
 */
import type { Message, PromptRequest } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";

function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.sender === "user" && !message.tool_results?.length) return message.text;
  }
  return "";
}

/** What the model says once a tool answered: the result, or why there is none. */
function afterTool(message: Message): ScriptedTurn {
  const result = message.tool_results![0]!;
  if (result.result.status !== "success")
    return { text: `That did not work: ${result.result.message ?? "the tool failed"}.` };
  const data = result.result.data as Record<string, unknown>;
  if (result.tool_name === "get_weather")
    return { text: `The weather in ${String(data.city)}: ${String(data.forecast)}.` };
  return { text: `Done: the email to ${String(data.to)} is sent.` };
}

export function offlineTurn(request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.tool_results?.length) return afterTool(last);
  const text = lastUserText(request.messages);
  const weather = /weather in ([\p{L} -]+)/iu.exec(text);
  if (weather)
    return { text: "Let me look that up.", toolCalls: [{ name: "get_weather", input: { city: weather[1]!.trim() } }] };
  const email = /email (\S+)/i.exec(text);
  if (email)
    return {
      text: "I will send it once you allow it.",
      toolCalls: [{ name: "send_email", input: { to: email[1]!, subject: "Hello from Glove" } }],
    };
  return { text: `You said: ${text}. Ask me about the weather in a city, or to email someone.` };
}

/** A fresh offline model (one per conversation): `delayMs` between streamed words. */
export function offlineModel(delayMs: number): ScriptedModel {
  return new ScriptedModel([], { name: "use-chat-offline", delayMs, record: false, fallback: offlineTurn });
}
