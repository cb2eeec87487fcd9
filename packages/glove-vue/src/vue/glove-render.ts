import {
  computed,
  defineComponent,
  Fragment,
  h,
  type PropType,
  type SlotsType,
  type VNode,
  type VNodeChild,
} from "vue";
import {
  transcriptLayout,
  visibleSlots,
  type ClientSlot,
  type LayoutItem,
  type RenderStrategy,
  type ToolEntry,
} from "glove-client";
import {
  CompactionMarker,
  DefaultInput,
  DefaultMessage,
  DefaultStreaming,
  type InputRenderProps,
  type MessageRenderProps,
  type StreamingRenderProps,
} from "./default-renderers.js";
import type { UseGloveReturn } from "./use-glove-config.js";

/** What `renderToolStatus` (or the `#tool-status` slot) receives: the call and whether a slot of it shows. */
export interface ToolStatusRenderProps {
  entry: ToolEntry;
  index: number;
  /** A visible slot of this call is shown (the live UI, rather than `renderResult`). */
  hasSlot: boolean;
}

/** What `renderSlotContainer` (or the `#slot-container` slot) receives: the visible slots and how to draw one. */
export interface SlotContainerRenderProps {
  slots: ClientSlot[];
  renderSlot: (slot: ClientSlot) => VNodeChild;
}

/** What `GloveRender` draws from: the `useGlove()` result. */
export type GloveRenderSource = Pick<
  UseGloveReturn,
  | "timeline"
  | "streamingText"
  | "busy"
  | "slots"
  | "sendMessage"
  | "abort"
  | "renderSlot"
  | "renderToolResult"
  | "connection"
>;

type Draw<P> = (props: P) => VNodeChild;

const DefaultSlotContainer: Draw<SlotContainerRenderProps> = ({ slots, renderSlot }) =>
  h(
    "div",
    { "data-glove-role": "slots" },
    slots.map((slot) => renderSlot(slot)),
  );

/**
 * A headless transcript: messages, tool calls, slots (display strategies applied) and the input,
 * placed by `strategy`. Each part is drawn by, in order of preference, a scoped slot (`#message`,
 * `#tool-status`, `#streaming`, `#input`, `#slot-container`), a render-function prop (mounted as a
 * functional component), or the default. Keys are message keys, call ids and slot ids, so nothing
 * remounts while text streams.
 */
export const GloveRender = defineComponent({
  name: "GloveRender",
  props: {
    glove: { type: Object as PropType<GloveRenderSource>, required: true },
    strategy: { type: String as PropType<RenderStrategy>, default: "interleaved" },
    renderMessage: { type: Function as PropType<Draw<MessageRenderProps>>, default: undefined },
    /** A line per tool call (default: nothing). */
    renderToolStatus: { type: Function as PropType<Draw<ToolStatusRenderProps>>, default: undefined },
    renderStreaming: { type: Function as PropType<Draw<StreamingRenderProps>>, default: undefined },
    /** The input area; `null` renders none. */
    renderInput: { type: [Function, null] as PropType<Draw<InputRenderProps> | null>, default: undefined },
    renderSlotContainer: { type: Function as PropType<Draw<SlotContainerRenderProps>>, default: undefined },
    /** The wrapper element. Default "div". */
    as: { type: String, default: "div" },
  },
  slots: Object as SlotsType<{
    message?: MessageRenderProps;
    "tool-status"?: ToolStatusRenderProps;
    streaming?: StreamingRenderProps;
    input?: InputRenderProps;
    "slot-container"?: SlotContainerRenderProps;
  }>,
  setup(props, { slots }) {
    const shown = computed(() => visibleSlots(props.glove.slots.value));
    const items = computed(() =>
      transcriptLayout(props.glove.timeline.value, shown.value, props.glove.streamingText.value, props.strategy),
    );
    const callsWithSlot = computed(
      () => new Set(shown.value.map((slot) => slot.toolCallId).filter((id): id is string => Boolean(id))),
    );

    /** A part drawn by its scoped slot, else its render prop (as a functional component), else the default. */
    function part<P extends object>(
      slot: ((props: P) => VNode[]) | undefined,
      prop: Draw<P> | undefined,
      fallback: Draw<P> | null,
      partProps: P,
    ): VNodeChild {
      if (slot) return slot(partProps);
      const draw = prop ?? fallback;
      return draw ? h(draw, partProps as never) : null;
    }

    function draw(item: LayoutItem, lastIndex: number): VNode | null {
      const { glove } = props;
      switch (item.type) {
        case "entry": {
          const { entry, index } = item;
          if (entry.kind === "user" || entry.kind === "agent_text") {
            const isLast = index === lastIndex && !glove.streamingText.value;
            const message = part(slots.message, props.renderMessage, DefaultMessage, { entry, index, isLast });
            return h(Fragment, { key: entry.key }, [message]);
          }
          if (entry.kind === "tool") {
            const hasSlot = callsWithSlot.value.has(entry.id);
            return h(Fragment, { key: entry.key }, [
              part(slots["tool-status"], props.renderToolStatus, null, { entry, index, hasSlot }),
              // From history (e.g. after a reload) the result view stands in for the live slot.
              hasSlot ? null : glove.renderToolResult(entry),
            ]);
          }
          if (entry.kind === "compaction") return h(Fragment, { key: entry.key }, [CompactionMarker({ entry })]);
          return null; // skill context: not something anyone typed
        }
        case "slot":
          return h(Fragment, { key: `slot:${item.slot.id}` }, [glove.renderSlot(item.slot)]);
        case "streaming":
          return h(Fragment, { key: "streaming" }, [
            part(slots.streaming, props.renderStreaming, DefaultStreaming, { text: item.text }),
          ]);
        case "slots":
          return h(Fragment, { key: item.key }, [
            part(slots["slot-container"], props.renderSlotContainer, DefaultSlotContainer, {
              slots: item.slots,
              renderSlot: glove.renderSlot,
            }),
          ]);
      }
    }

    return () => {
      const { glove } = props;
      const lastIndex = glove.timeline.value.length - 1;
      const children = items.value.map((item) => draw(item, lastIndex));
      const inputProps: InputRenderProps = {
        send: (text) => void glove.sendMessage(text),
        busy: glove.busy.value,
        abort: () => void glove.abort(),
        connection: glove.connection.value,
      };
      const input =
        slots.input || props.renderInput
          ? h(Fragment, { key: "input" }, [part(slots.input, props.renderInput ?? undefined, null, inputProps)])
          : props.renderInput === null
            ? null
            : h(DefaultInput, { key: "input", ...inputProps });
      return h(props.as, { "data-glove-strategy": props.strategy }, [...children, input]);
    };
  },
});
