import { Glove, type GloveFoldArgs, type ModelAdapter } from "glove-core";
import type { AgentFactory } from "glove-server";
import { offlineModel } from "./offline-model.js";
import { sendEmailTool, weatherTool, type SentEmail } from "./tools.js";

export const SYSTEM_PROMPT =
  "You are a helpful assistant in a web page. Use get_weather for the weather and send_email to send an email. Answer in one short sentence.";

export interface AssistantOptions {
  /** Emails send_email "sent" (shared by every conversation of the server). */
  outbox: SentEmail[];
  /** The model for each conversation. Default: the offline model, 30 ms between words. */
  model?: () => ModelAdapter;
  /** More tools (the tests add one that waits until they let it finish). */
  extraTools?: ReadonlyArray<GloveFoldArgs<never>>;
}

/** The agent factory glove-server calls for each conversation it opens. */
export function assistantAgent(options: AssistantOptions): AgentFactory {
  return ({ store }) => {
    const glove = new Glove({
      store,
      model: options.model?.() ?? offlineModel(30),
      systemPrompt: SYSTEM_PROMPT,
    })
      .fold(weatherTool)
      .fold(sendEmailTool(options.outbox));
    for (const tool of options.extraTools ?? []) glove.fold(tool);
    return glove;
  };
}
