/**
 * The smallest server-mode page in Vue: `useGlove({ server })`, `<GloveRender>` and one tool view
 * typed by zod schemas (the same as page/main.tsx's), mounted with Vue. Vue stays external: the
 * bench measures what Glove and zod add to a Vue app.
 */
import { createApp, defineComponent, h } from "vue";
import * as z from "zod";
import { GloveRender, defineToolView, useGlove, type ToolSchemas } from "glove-vue";

const pickSizeSchemas = {
  name: "pick_size",
  description: "Lets the customer pick a cup size.",
  inputSchema: z.object({ sizes: z.array(z.string()).min(2) }),
  displayPropsSchema: z.object({ sizes: z.array(z.string()) }),
  resolveSchema: z.string(),
  renderDataSchema: z.object({ size: z.string() }),
} satisfies ToolSchemas;

const pickSize = defineToolView({
  ...pickSizeSchemas,
  render: ({ props, resolve }) =>
    h(
      "div",
      props.sizes.map((size) => h("button", { key: size, type: "button", onClick: () => resolve(size) }, size)),
    ),
  renderResult: ({ data }) => h("p", `Size ${data.size}`),
});

const Conversation = defineComponent({
  props: { id: { type: String, default: undefined } },
  setup(props) {
    const glove = useGlove({ server: "/api/glove", conversationId: props.id, tools: [pickSize] });
    return () => h(GloveRender, { glove });
  },
});

createApp(Conversation, { id: new URLSearchParams(location.search).get("c") ?? undefined }).mount("#root");
