import { defineComponent, h, ref, useId, type PropType, type VNodeChild } from "vue";
import type { PermissionRequestInput } from "glove-core";
import type {
  AgentTextEntry,
  ClientSlot,
  CompactionEntry,
  ConnectionState,
  SlotIssue,
  SlotStatus,
  UserEntry,
} from "glove-client";
import type { SlotRenderer, SlotRenderProps } from "../types/tool.js";

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Every field of `SlotRenderProps` as a declared prop, for a stateful slot component
 * (`defineComponent({ props: slotRenderProps, setup })`): declared, none falls through to the
 * root element as an HTML attribute.
 */
export const slotRenderProps = {
  props: { type: null as unknown as PropType<unknown>, required: false },
  data: { type: null as unknown as PropType<unknown>, required: false },
  resolve: { type: Function as PropType<(value?: unknown) => void>, required: true },
  reject: { type: Function as PropType<(reason?: string) => void>, required: true },
  status: { type: String as PropType<SlotStatus>, required: true },
  issues: { type: Array as PropType<SlotIssue[]>, required: false },
  slot: { type: Object as PropType<ClientSlot>, required: true },
} as const;

/**
 * The default `permission_request` renderer: which tool wants to run with what, Allow / Deny and
 * "remember", as a labelled group so assistive technology announces it as one question.
 */
export const PermissionPrompt = defineComponent({
  name: "GlovePermissionPrompt",
  props: slotRenderProps,
  setup(props) {
    const remember = ref(false);
    const id = useId();
    return () => {
      const input = props.props as PermissionRequestInput | undefined;
      const pending = props.status === "pending";
      return h(
        "div",
        {
          role: "group",
          "aria-labelledby": `${id}-title`,
          "data-glove-role": "permission-request",
          "data-glove-status": props.status,
        },
        [
          h("p", { id: `${id}-title` }, ["Allow ", h("strong", input?.tool_name ?? "a tool"), " to run?"]),
          h("details", [h("summary", "Details"), h("pre", json(input?.input))]),
          pending
            ? [
                h("label", { for: `${id}-remember` }, [
                  h("input", {
                    id: `${id}-remember`,
                    type: "checkbox",
                    checked: remember.value,
                    onChange: (event: Event) => (remember.value = (event.target as HTMLInputElement).checked),
                  }),
                  " Remember my choice",
                ]),
                h(
                  "button",
                  { type: "button", onClick: () => props.resolve({ granted: true, remember: remember.value }) },
                  "Allow",
                ),
                h(
                  "button",
                  { type: "button", onClick: () => props.resolve({ granted: false, remember: remember.value }) },
                  "Deny",
                ),
              ]
            : h("p", { role: "status" }, props.status === "resolved" ? "Answered." : "No longer waiting."),
        ],
      );
    };
  },
});

/** `PermissionPrompt` as a slot renderer (what the renderer map holds under "permission_request"). */
export const permissionPrompt: SlotRenderer = (props) => h(PermissionPrompt, { ...props });

/** Shown when no renderer has the slot's name: visible, names the renderer, and lets the user dismiss it. */
export const unknownRenderer: SlotRenderer = ({ slot, reject, status }: SlotRenderProps) =>
  h("div", { role: "alert", "data-glove-role": "unknown-renderer" }, [
    h("p", [
      "No renderer named ",
      h("code", slot.renderer),
      slot.toolName && slot.toolName !== slot.renderer ? ` (pushed by ${slot.toolName})` : "",
      ". Add a tool with a render function, or a renderer of that name.",
    ]),
    h("pre", json(slot.input)),
    status === "pending"
      ? h("button", { type: "button", onClick: () => reject(`no renderer named ${slot.renderer}`) }, "Dismiss")
      : null,
  ]);

/** What `renderMessage` (or the `#message` slot) receives: a user or agent entry and where it sits. */
export interface MessageRenderProps {
  entry: UserEntry | AgentTextEntry;
  index: number;
  isLast: boolean;
}

/** The plain message row `GloveRender` uses when you pass no `renderMessage`; failed sends get a Retry button. */
export function DefaultMessage({ entry }: MessageRenderProps): VNodeChild {
  if (entry.kind === "user") {
    return h("div", { "data-glove-role": "user", "data-glove-status": entry.status }, [
      entry.text,
      entry.status === "failed"
        ? h("span", { role: "alert" }, [
            ` Not sent${entry.error ? `: ${entry.error.message}` : ""}. `,
            entry.retry ? h("button", { type: "button", onClick: entry.retry }, "Retry") : null,
          ])
        : null,
    ]);
  }
  return h("div", { "data-glove-role": "agent", "data-glove-interrupted": entry.interrupted ? "true" : undefined }, [
    entry.text,
  ]);
}

/** What `renderStreaming` receives: the text the model is still writing. */
export interface StreamingRenderProps {
  text: string;
}

/** The streaming text row `GloveRender` uses by default, announced politely to screen readers. */
export function DefaultStreaming({ text }: StreamingRenderProps): VNodeChild {
  return h("div", { "data-glove-role": "agent", "data-glove-streaming": "true", "aria-live": "polite" }, [text]);
}

/** Marks where the history was summarised, with the summary folded away. */
export function CompactionMarker({ entry }: { entry: CompactionEntry }): VNodeChild {
  return h("details", { role: "separator", "data-glove-role": "compaction" }, [
    h("summary", "Earlier messages were summarised"),
    h("p", entry.summary),
  ]);
}

/** What `renderInput` receives: send, abort, whether the agent is busy and the connection state. */
export interface InputRenderProps {
  send: (text: string) => void;
  busy: boolean;
  abort: () => void;
  connection: ConnectionState;
}

/** An uncontrolled form: typing never re-renders the transcript. Sending while busy queues. */
export const DefaultInput = defineComponent({
  name: "GloveDefaultInput",
  props: {
    send: { type: Function as PropType<(text: string) => void>, required: true },
    busy: { type: Boolean, required: true },
    abort: { type: Function as PropType<() => void>, required: true },
    connection: { type: String as PropType<ConnectionState>, required: true },
  },
  setup(props) {
    const id = useId();
    const onSubmit = (event: Event) => {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      const field = form.elements.namedItem("message") as HTMLInputElement | null;
      const text = field?.value.trim();
      if (!field || !text) return;
      props.send(text);
      field.value = "";
    };
    return () =>
      h("form", { "data-glove-role": "input", onSubmit }, [
        h("label", { for: id }, "Message"),
        h("input", { id, name: "message", autocomplete: "off", placeholder: "Type a message…" }),
        h("button", { type: "submit" }, "Send"),
        props.busy ? h("button", { type: "button", onClick: props.abort }, "Stop") : null,
      ]);
  },
});
