/**
 * The page the SSR test renders on the server (vue/server-renderer) and hydrates in Chromium: a
 * conversation from its snapshot, glove-vue's default transcript and input. No browser global is
 * read during setup, so the same component renders on both sides.
 */
import { defineComponent, h, type PropType } from "vue";
import { GloveRender, useGlove, type ConversationSnapshot } from "glove-vue";

export const SsrChat = defineComponent({
  props: {
    snapshot: { type: Object as PropType<ConversationSnapshot>, required: true },
    /** The test's bearer token (the page and the test are one user). */
    token: { type: String, required: true },
  },
  setup(props) {
    const glove = useGlove({
      server: "/api",
      conversationId: props.snapshot.id,
      initialSnapshot: props.snapshot,
      headers: { authorization: `Bearer ${props.token}` },
    });
    return () =>
      h("main", [
        h("p", { "data-testid": "connection", "data-state": glove.connection.value }, glove.connection.value),
        h("div", { "data-testid": "transcript" }, [h(GloveRender, { glove })]),
      ]);
  },
});
