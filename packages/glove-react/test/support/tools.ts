import { z } from "zod";
import { defineTool } from "glove-react";

/** A form: waits for `{ age }`, checked by its resolveSchema. */
export const askAge = defineTool({
  name: "ask_age",
  description: "Asks the user's age with a form.",
  inputSchema: z.object({ question: z.string() }),
  displayPropsSchema: z.object({ question: z.string() }),
  resolveSchema: z.object({ age: z.number().int().min(0) }),
  displayStrategy: "hide-on-complete",
  async do(input, display) {
    const { age } = await display.pushAndWait(input);
    return { status: "success", data: `The user is ${age}.`, renderData: { question: input.question, age } };
  },
  render: ({ props, resolve }) => `${props.question} [${typeof resolve}]`,
  renderResult: ({ data }) => `Answered: ${data.age}`,
});

/** A card shown with pushAndForget. */
export const showCard = defineTool({
  name: "show_card",
  description: "Shows a card.",
  inputSchema: z.object({ title: z.string() }),
  displayPropsSchema: z.object({ title: z.string() }),
  displayStrategy: "hide-on-new",
  async do(input, display) {
    await display.pushAndForget(input);
    return { status: "success", data: "shown", renderData: { card: input.title } };
  },
  render: ({ props }) => `Card: ${props.title}`,
  renderResult: ({ data }) => `Card from history: ${data.card}`,
});

/** Needs the user's permission to run. */
export const deleteFile = defineTool({
  name: "delete_file",
  description: "Deletes a file.",
  inputSchema: z.object({ path: z.string() }),
  requiresPermission: true,
  async do(input) {
    return `deleted ${input.path}`;
  },
});

/** Runs until aborted. */
export const slowJob = defineTool({
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
});
