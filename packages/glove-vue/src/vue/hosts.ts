import { defineComponent, h, onErrorCaptured, shallowRef, type PropType, type VNodeChild } from "vue";
import type { ClientSlot, SlotAnswerResult } from "glove-client";
import type { SlotRenderer, SlotRenderProps, ToolResultRenderer, ToolResultRenderProps } from "../types/tool.js";
import { unknownRenderer } from "./default-renderers.js";

/**
 * Keeps one broken renderer from taking the whole transcript down: an error thrown while drawing
 * the child is logged and replaced by a visible notice (Vue's errorCaptured, as React's boundary).
 */
function useRenderBoundary(label: () => string): (draw: () => VNodeChild) => VNodeChild {
  const failure = shallowRef<Error | null>(null);
  onErrorCaptured((error) => {
    console.error(`[glove-vue] ${label()} threw while rendering`, error);
    failure.value = error instanceof Error ? error : new Error(String(error));
    return false;
  });
  return (draw) =>
    failure.value
      ? h("div", { role: "alert", "data-glove-role": "render-error" }, [
          `${label()} could not be shown: ${failure.value.message}`,
        ])
      : draw();
}

type Answer = (slotId: string, value?: unknown) => Promise<SlotAnswerResult>;

/** One slot: its renderer (or the visible fallback), answerable only while pending. */
export const SlotHost = defineComponent({
  name: "GloveSlotHost",
  props: {
    slot: { type: Object as PropType<ClientSlot>, required: true },
    render: { type: Function as PropType<SlotRenderer>, default: undefined },
    resolveSlot: { type: Function as PropType<Answer>, required: true },
    rejectSlot: {
      type: Function as PropType<(slotId: string, reason?: string) => Promise<SlotAnswerResult>>,
      required: true,
    },
  },
  setup(props) {
    const guarded = useRenderBoundary(() => `The "${props.slot.renderer}" slot`);
    return () =>
      guarded(() => {
        const slot = props.slot;
        const pending = slot.status === "pending";
        const renderProps: SlotRenderProps = {
          props: slot.input,
          data: slot.input,
          resolve: (value?: unknown) => {
            if (pending) void props.resolveSlot(slot.id, value);
          },
          reject: (reason?: string) => {
            if (pending) void props.rejectSlot(slot.id, reason);
          },
          status: slot.status,
          issues: slot.issues,
          slot,
        };
        // The renderer as a functional component: its own vnode, re-rendered with the slot.
        return h(props.render ?? unknownRenderer, renderProps);
      });
  },
});

/** A finished call from history, drawn by its tool's `renderResult`. */
export const ResultHost = defineComponent({
  name: "GloveResultHost",
  props: {
    render: { type: Function as PropType<ToolResultRenderer>, required: true },
    result: { type: Object as PropType<ToolResultRenderProps>, required: true },
    name: { type: String, required: true },
  },
  setup(props) {
    const guarded = useRenderBoundary(() => `The result of "${props.name}"`);
    return () => guarded(() => h(props.render, { ...props.result }));
  },
});
