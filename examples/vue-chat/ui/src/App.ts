/**
 * The Glove Bistro chat in Vue: glove-vue in server mode, attached to the web demo's glove-server
 * under /api (same origin; the demo cookie identifies the browser). The conversation id lives in the
 * URL (?c=…), so a reload resumes the same conversation, pending forms included.
 */
import { computed, defineComponent, h, provide, ref, watch } from "vue";
import {
  GloveRender,
  useGlove,
  type MessageRenderProps,
  type StreamingRenderProps,
  type ToolStatusRenderProps,
} from "glove-vue";
import { SUGGESTIONS } from "../../../web-chat/src/shared.js";
import { BRANCH_ACTIONS, BranchPicker, EditableText, RegenerateButton } from "./branching.js";
import { CONNECTION_LABEL, composer, inboxPanel, tasksPanel } from "./panels.js";
import { QUIET_TOOLS, renderers, tools } from "./renderers.js";

const API = "/api";

interface ConversationSummary {
  id: string;
  title: string | null;
}

function conversationFromUrl(): string | undefined {
  return new URLSearchParams(window.location.search).get("c") ?? undefined;
}

function putInUrl(id: string | null): void {
  const url = new URL(window.location.href);
  if (id) url.searchParams.set("c", id);
  else url.searchParams.delete("c");
  window.history.replaceState(null, "", url);
}

function message({ entry, isLast }: MessageRenderProps) {
  if (entry.kind === "user") {
    return h("div", { class: "bubble user", "data-glove-role": "user", "data-glove-status": entry.status }, [
      entry.messageId !== undefined ? h(EditableText, { messageId: entry.messageId, text: entry.text }) : entry.text,
      h(BranchPicker, { branch: entry.branch }),
      entry.status === "queued" || entry.status === "sending"
        ? h("span", { class: "meta" }, ` · ${entry.status === "queued" ? "waiting" : "sending"}`)
        : null,
      entry.status === "failed"
        ? h("span", { role: "alert", class: "meta" }, [
            ` · not sent${entry.error ? `: ${entry.error.message}` : ""} `,
            entry.retry ? h("button", { type: "button", class: "link", onClick: entry.retry }, "Retry") : null,
          ])
        : null,
    ]);
  }
  return h(
    "div",
    {
      class: "bubble agent",
      "data-glove-role": "agent",
      "data-glove-interrupted": entry.interrupted ? "true" : undefined,
    },
    [
      entry.text,
      entry.interrupted ? h("span", { class: "meta" }, " · stopped") : null,
      h(BranchPicker, { branch: entry.branch }),
      isLast && !entry.interrupted ? h(RegenerateButton) : null,
    ],
  );
}

const streaming = ({ text }: StreamingRenderProps) =>
  h(
    "div",
    {
      class: "bubble agent streaming",
      "data-glove-role": "agent",
      "data-glove-streaming": "true",
      "aria-live": "polite",
    },
    text,
  );

const STATUS_MARK = { running: "…", success: "✓", error: "✗", aborted: "■" } as const;

const toolLine = ({ entry }: ToolStatusRenderProps) =>
  QUIET_TOOLS.has(entry.name)
    ? null
    : h(
        "div",
        { class: "tool-line", "data-call-id": entry.id, "data-tool": entry.name, "data-tool-status": entry.status },
        [
          h("span", { "aria-hidden": "true" }, STATUS_MARK[entry.status]),
          ` ${entry.name}`,
          entry.status === "error" || entry.status === "aborted"
            ? h("span", { class: "meta" }, ` · ${entry.output ?? entry.status}`)
            : null,
        ],
      );

export const App = defineComponent({
  name: "BistroChat",
  setup() {
    const conversationId = ref(conversationFromUrl());
    const glove = useGlove(() => ({
      server: API,
      conversationId: conversationId.value,
      onConversationChange: (id: string | null) => {
        conversationId.value = id ?? undefined;
        putInUrl(id);
      },
      tools,
      renderers,
      credentials: "same-origin",
      // A demo: come back quickly after a restart of the server.
      backoff: { initialMs: 250, maxMs: 3000 },
    }));
    provide(BRANCH_ACTIONS, glove);
    const { timeline, busy, connection, error, tasks, inbox, stats, sessionId, streamingText, slots } = glove;

    // The caller's conversations, fetched again when the conversation, busy or the connection changes.
    const list = ref<ConversationSummary[]>([]);
    const failed = ref(false);
    watch(
      () => `${sessionId.value ?? ""}|${busy.value}|${connection.value === "open"}`,
      () => {
        fetch(`${API}/conversations?limit=50`, { credentials: "same-origin" })
          .then(async (response) => {
            if (!response.ok) throw new Error(String(response.status));
            list.value = ((await response.json()) as { conversations: ConversationSummary[] }).conversations;
            failed.value = false;
          })
          .catch(() => (failed.value = true));
      },
      { immediate: true },
    );
    // A question waiting for the user keeps its turn stoppable, also once the turn left the server's memory.
    const asking = computed(() => slots.value.some((slot) => slot.mode === "wait" && slot.status === "pending"));

    const bottom = ref<HTMLElement | null>(null);
    watch([timeline, streamingText, slots], () => bottom.value?.scrollIntoView({ block: "end" }), { flush: "post" });

    return () => {
      const empty = timeline.value.length === 0 && !streamingText.value;
      return h("div", { class: "app" }, [
        h("header", { class: "top" }, [
          h("h1", "Glove Bistro"),
          h(
            "span",
            { class: "connection", "data-testid": "connection", "data-state": connection.value, role: "status" },
            [CONNECTION_LABEL[connection.value]],
          ),
        ]),
        h("nav", { class: "conversations", "aria-label": "Conversations" }, [
          h(
            "button",
            { type: "button", class: "primary new", onClick: () => glove.newConversation() },
            "New conversation",
          ),
          failed.value ? h("p", { class: "empty" }, "Could not load the list.") : null,
          h(
            "ul",
            list.value.map((c) =>
              h("li", { key: c.id }, [
                h(
                  "button",
                  {
                    type: "button",
                    class: "conversation",
                    "aria-current": c.id === sessionId.value ? "page" : undefined,
                    "data-conversation-id": c.id,
                    onClick: () => glove.switchConversation(c.id),
                  },
                  c.title ?? "New conversation",
                ),
              ]),
            ),
          ),
        ]),
        h("main", { class: "chat" }, [
          h("div", { class: "transcript", "data-testid": "transcript" }, [
            empty
              ? h("div", { class: "welcome" }, [
                  h("p", "Ask the bistro's assistant something, or try one of these:"),
                  h(
                    "div",
                    { class: "actions" },
                    SUGGESTIONS.map((s) =>
                      h("button", { key: s, type: "button", onClick: () => glove.sendMessage(s) }, s),
                    ),
                  ),
                ])
              : null,
            h(GloveRender, {
              glove,
              renderMessage: message,
              renderStreaming: streaming,
              renderToolStatus: toolLine,
              renderInput: null,
              class: "timeline",
            }),
            error.value
              ? h("p", { role: "alert", class: "banner", "data-testid": "error" }, error.value.message)
              : null,
            h("div", { ref: bottom }),
          ]),
          composer(glove.sendMessage, busy.value || asking.value, () => void glove.abort()),
        ]),
        h("aside", { class: "side" }, [
          tasksPanel(tasks.value),
          inboxPanel(inbox.value),
          h(
            "p",
            { class: "stats meta" },
            `${stats.value.turns} model calls · ${stats.value.tokens_in} tokens in · ${stats.value.tokens_out} out`,
          ),
        ]),
      ]);
    };
  },
});
