/**
 * The example agent's tools: one that just runs (its input and output appear as a tool part) and
 * one that needs the user's permission (a tool approval in the useChat page).
 */
import { z } from "zod";
import type { GloveFoldArgs } from "glove-core";

export interface SentEmail {
  to: string;
  subject: string;
}

const FORECASTS = ["sunny, 24 °C", "light rain, 14 °C", "cloudy, 18 °C", "windy, 11 °C"];

export const weatherTool: GloveFoldArgs<{ city: string }> = {
  name: "get_weather",
  description: "Today's weather in a city.",
  inputSchema: z.object({ city: z.string().min(1) }),
  async do({ city }) {
    const forecast = FORECASTS[[...city].reduce((sum, c) => sum + c.charCodeAt(0), 0) % FORECASTS.length]!;
    return { status: "success", data: { city, forecast } };
  },
};

/** Sends nothing for real: it records the email in `outbox`, so the demo (and its tests) can see it ran. */
export function sendEmailTool(outbox: SentEmail[]): GloveFoldArgs<SentEmail> {
  return {
    name: "send_email",
    description: "Sends an email. The user is asked for permission first.",
    inputSchema: z.object({ to: z.string().min(1), subject: z.string().min(1) }),
    requiresPermission: true,
    async do(email) {
      outbox.push(email);
      return { status: "success", data: { sent: true, to: email.to } };
    },
  };
}
