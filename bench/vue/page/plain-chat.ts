/**
 * The baseline: a minimal hand-written Vue chat. The history in a ref, the streaming text in a ref,
 * one assignment per token (Vue flushes once per tick, and each token arrives in its own macrotask).
 */
import { defineComponent, h, onMounted, onUpdated, ref, shallowRef, type PropType } from "vue";
import { historyText, streamTokens } from "../../react/page/tokens.js";
import type { ChatControls } from "./glove-chat.js";

interface ChatMessage {
  id: number;
  sender: "user" | "agent";
  text: string;
}

export const PlainChat = defineComponent({
  props: {
    entries: { type: Number, required: true },
    tokens: { type: Number, required: true },
    onReady: { type: Function as PropType<(controls: ChatControls) => void>, required: true },
  },
  setup(props) {
    const messages = shallowRef<ChatMessage[]>(
      Array.from({ length: props.entries }, (_, i) => ({
        id: i,
        sender: i % 2 === 0 ? "user" : "agent",
        text: historyText(i),
      })),
    );
    const streaming = ref("");
    let done: (() => void) | null = null;
    onMounted(() =>
      props.onReady({
        start: () =>
          new Promise<void>((resolve) => {
            messages.value = [
              ...messages.value,
              { id: messages.value.length, sender: "user", text: "What about tonight?" },
            ];
            let text = "";
            void streamTokens(props.tokens, (token) => {
              text += token;
              streaming.value = text;
            }).then(() => {
              streaming.value = "";
              messages.value = [...messages.value, { id: messages.value.length, sender: "agent", text }];
              done = resolve;
            });
          }),
      }),
    );
    // The last update: the answer is in the history.
    onUpdated(() => {
      done?.();
      done = null;
    });
    return () =>
      h("div", { class: "chat" }, [
        ...messages.value.map((m) => h("div", { key: m.id, class: m.sender }, m.text)),
        streaming.value ? h("div", { key: "streaming", class: "agent streaming" }, streaming.value) : null,
      ]);
  },
});
