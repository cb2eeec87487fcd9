/**
 * glove-react's side: a local-mode `useGlove` (the Glove runs in the tab) whose model streams the
 * shared token source, drawn by `<Render>` with its default renderers.
 */
import { useEffect, useRef, type ReactNode } from "react";
import {
  MemoryStore,
  type Message,
  type ModelAdapter,
  type ModelPromptResult,
  type NotifySubscribersFunction,
} from "glove-core";
import { Render, useGlove } from "glove-react";
import type { ChatControls } from "./plain-chat.js";
import { fullText, historyText, streamTokens } from "./tokens.js";

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

export function GloveChat({
  store,
  entries,
  tokens,
  onReady,
}: {
  store: MemoryStore;
  entries: number;
  tokens: number;
  onReady: (controls: ChatControls) => void;
}): ReactNode {
  const model = useRef(new FeedModel(tokens)).current;
  const glove = useGlove({ model, store, systemPrompt: "Benchmark." });
  const done = useRef<(() => void) | null>(null);
  const expected = useRef(fullText(tokens)).current;
  const { sendMessage } = glove;
  const loaded = glove.timeline.length >= entries;

  // Ready once the history is on screen (the session loads it from the store in an effect).
  useEffect(() => {
    if (!loaded) return;
    onReady({
      start: () =>
        new Promise<void>((resolve) => {
          done.current = resolve;
          sendMessage("What about tonight?");
        }),
    });
  }, [loaded, onReady, sendMessage]);

  // The last commit: the answer is in the timeline and the turn is over.
  const last = glove.timeline.at(-1);
  useEffect(() => {
    if (done.current && !glove.busy && last?.kind === "agent_text" && last.text === expected) {
      done.current();
      done.current = null;
    }
  }, [glove.busy, last, expected]);

  return <Render glove={glove} renderInput={null} />;
}
