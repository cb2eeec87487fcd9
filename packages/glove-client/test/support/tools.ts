import { z } from "zod";
import type { ToolConfig } from "glove-client";

/**
 * The test tools as plain `ToolConfig`s (glove-react's `defineTool` makes the same objects with
 * typed props): folded into the server's Glove, or run in the tab by a LocalSession.
 */

/** A form: waits for `{ age }`, checked by its resolveSchema. */
export const askAge: ToolConfig<{ question: string }, string> = {
  name: "ask_age",
  description: "Asks the user's age with a form.",
  inputSchema: z.object({ question: z.string() }),
  resolveSchema: z.object({ age: z.number().int().min(0) }),
  displayStrategy: "hide-on-complete",
  async do(input, display) {
    const { age } = await display.pushAndWait<unknown, { age: number }>({ input });
    return { status: "success", data: `The user is ${age}.`, renderData: { question: input.question, age } };
  },
  render: ({ props, resolve }) => `${(props as { question: string }).question} [${typeof resolve}]`,
  renderResult: ({ data }) => `Answered: ${(data as { age: number }).age}`,
};

/** A card shown with pushAndForget. */
export const showCard: ToolConfig<{ title: string }, string> = {
  name: "show_card",
  description: "Shows a card.",
  inputSchema: z.object({ title: z.string() }),
  displayStrategy: "hide-on-new",
  async do(input, display) {
    await display.pushAndForget({ input });
    return { status: "success", data: "shown", renderData: { card: input.title } };
  },
  render: ({ props }) => `Card: ${(props as { title: string }).title}`,
  renderResult: ({ data }) => `Card from history: ${(data as { card: string }).card}`,
};

/** Needs the user's permission to run. */
export const deleteFile: ToolConfig<{ path: string }> = {
  name: "delete_file",
  description: "Deletes a file.",
  inputSchema: z.object({ path: z.string() }),
  requiresPermission: true,
  async do(input) {
    return `deleted ${input.path}`;
  },
};

/** Runs until aborted. */
export const slowJob: ToolConfig<Record<string, never>> = {
  name: "slow_job",
  description: "Takes a long time.",
  inputSchema: z.object({}),
  async do(_input, _display, _glove, signal) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 30_000);
      signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    return "finished";
  },
};
