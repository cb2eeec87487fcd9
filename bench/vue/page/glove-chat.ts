/**
 * glove-vue's side: a local-mode `useGlove` (the Glove runs in the tab) whose model streams the
 * shared token source, drawn by `<GloveRender>` with its default renderers.
 */
import { computed, defineComponent, h, watch, type PropType } from "vue";
import {
  MemoryStore,
  type Message,
  type ModelAdapter,
  type ModelPromptResult,
  type NotifySubscribersFunction,
} from "glove-core";
import { GloveRender, useGlove } from "glove-vue";
import { fullText, historyText, streamTokens } from "../../react/page/tokens.js";

export interface ChatControls {
  /** Starts the stream; resolves when the whole answer is in the DOM. */
  start(): Promise<void>;
}

/** A model adapter that streams `tokens` tokens from the shared source, as a provider's stream would. */
class FeedModel implements ModelAdapter {
  readonly name = "feed";
  constructor(private readonly tokens: number) {}
  setSystemPrompt(): void {}
  async prompt(_request: unknown, notify: NotifySubscribersFunction): Promise<ModelPromptResult> {
    let text = "";
    await streamTokens(this.tokens, async (token) => {
      text += token;
      await notify("text_delta", { text: token });
    });
    const tokens_out = this.tokens;
    await notify("model_response_complete", { text, stop_reason: "end_turn", tokens_in: 1000, tokens_out });
    return { messages: [{ sender: "agent", text }], tokens_in: 1000, tokens_out };
  }
}

/** A store holding `entries` messages of history (what the timeline shows before the stream). */
export async function historyStore(entries: number): Promise<MemoryStore> {
  const store = new MemoryStore("bench");
  const messages: Message[] = Array.from({ length: entries }, (_, i) => ({
    sender: i % 2 === 0 ? "user" : "agent",
    text: historyText(i),
  }));
  await store.appendMessages(messages);
  return store;
}

export const GloveChat = defineComponent({
  props: {
    store: { type: Object as PropType<MemoryStore>, required: true },
    entries: { type: Number, required: true },
    tokens: { type: Number, required: true },
    onReady: { type: Function as PropType<(controls: ChatControls) => void>, required: true },
  },
  setup(props) {
    const model = new FeedModel(props.tokens);
    const glove = useGlove({ model, store: props.store, systemPrompt: "Benchmark." });
    const expected = fullText(props.tokens);
    let done: (() => void) | null = null;

    // Ready once the history is on screen (the session loads it from the store on mount).
    const loaded = computed(() => glove.timeline.value.length >= props.entries);
    watch(
      loaded,
      (ready) => {
        if (!ready) return;
        props.onReady({
          start: () =>
            new Promise<void>((resolve) => {
              done = resolve;
              glove.sendMessage("What about tonight?");
            }),
        });
      },
      { flush: "post" },
    );
    // The last update: the answer is in the timeline and the turn is over (after the DOM patch).
    watch(
      () => [glove.busy.value, glove.timeline.value.at(-1)] as const,
      ([busy, last]) => {
        if (done && !busy && last?.kind === "agent_text" && last.text === expected) {
          done();
          done = null;
        }
      },
      { flush: "post" },
    );
    return () => h(GloveRender, { glove, renderInput: null });
  },
});
