import { h } from "vue";
import { z } from "zod";
import { defineTool, defineToolView } from "glove-vue";

/** A form: waits for `{ age }`, checked by its resolveSchema; drawn with real buttons. */
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
  render: ({ props, resolve, issues, status }) =>
    h("form", { "data-testid": "age-form", "data-status": status }, [
      h("p", props.question),
      h(
        "button",
        {
          type: "button",
          "data-testid": "bad",
          onClick: () => resolve({ age: "forty" } as unknown as { age: number }),
        },
        "bad",
      ),
      h("button", { type: "button", "data-testid": "good", onClick: () => resolve({ age: 40 }) }, "good"),
      ...(issues ?? []).map((issue) => h("em", { key: issue.path }, `${issue.path}: ${issue.message}`)),
    ]),
  renderResult: ({ data }) => h("p", { "data-testid": "result" }, `Answered: ${data.age}`),
});

/** A card shown with pushAndForget, as a server tool's view. */
export const showCard = defineToolView({
  name: "show_card",
  displayPropsSchema: z.object({ title: z.string() }),
  renderDataSchema: z.object({ card: z.string() }),
  displayStrategy: "hide-on-new",
  render: ({ props }) => h("b", `Card: ${props.title}`),
  renderResult: ({ data }) => h("b", `Card from history: ${data.card}`),
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
