/**
 * The smallest server-mode page: `useGlove({ server })`, `<Render>` and one tool view typed by zod
 * schemas (the schemas a server's `defineTool` would share), mounted with React. React stays
 * external: the bench measures what Glove and zod add to a React app.
 */
import { createRoot } from "react-dom/client";
import * as z from "zod";
import { Render, defineToolView, useGlove, type ToolSchemas } from "glove-react";

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
  render: ({ props, resolve }) => (
    <div>
      {props.sizes.map((size) => (
        <button key={size} type="button" onClick={() => resolve(size)}>
          {size}
        </button>
      ))}
    </div>
  ),
  renderResult: ({ data }) => <p>Size {data.size}</p>,
});

function Conversation({ id }: { id?: string }) {
  const glove = useGlove({ server: "/api/glove", conversationId: id, tools: [pickSize] });
  return <Render glove={glove} />;
}

createRoot(document.getElementById("root")!).render(
  <Conversation id={new URLSearchParams(location.search).get("c") ?? undefined} />,
);
