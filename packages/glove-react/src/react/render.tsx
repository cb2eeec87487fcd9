import { createElement, Fragment, useMemo, type CSSProperties, type ReactNode } from "react";
import {
  transcriptLayout,
  visibleSlots,
  type ClientSlot,
  type RenderStrategy,
  type AgentTextEntry,
  type ToolEntry,
  type UserEntry,
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
import { Invoke } from "./hosts.js";
import type { UseGloveReturn } from "./use-glove-config.js";

export type { RenderStrategy } from "glove-client";

/** What `renderToolStatus` receives: the tool call and whether a slot of it is showing. */
export interface ToolStatusRenderProps {
  entry: ToolEntry;
  index: number;
  /** A visible slot of this call is shown (the live UI, rather than `renderResult`). */
  hasSlot: boolean;
}

/** What `renderSlotContainer` receives: the visible slots and a function to draw each one. */
export interface SlotContainerRenderProps {
  slots: ClientSlot[];
  renderSlot: (slot: ClientSlot) => ReactNode;
}

/**
 * Props of `Render`, the ready-made transcript: the `useGlove()` result, a layout, and renderers to
 * override.
 */
export interface RenderProps {
  /** What `useGlove()` returned. */
  glove: Pick<
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
  strategy?: RenderStrategy | undefined;
  renderMessage?: ((props: MessageRenderProps) => ReactNode) | undefined;
  /** A line per tool call (default: nothing). */
  renderToolStatus?: ((props: ToolStatusRenderProps) => ReactNode) | undefined;
  renderStreaming?: ((props: StreamingRenderProps) => ReactNode) | undefined;
  /** The input area; `null` renders none. */
  renderInput?: ((props: InputRenderProps) => ReactNode) | null | undefined;
  /** Wraps the slots of `slots-before` / `slots-after` / `slots-only`. */
  renderSlotContainer?: ((props: SlotContainerRenderProps) => ReactNode) | undefined;
  /** The wrapper element. Default "div". */
  as?: string | undefined;
  className?: string | undefined;
  style?: CSSProperties | undefined;
}

const nothing = (): ReactNode => null;

function DefaultSlotContainer({ slots, renderSlot }: SlotContainerRenderProps): ReactNode {
  return <div data-glove-role="slots">{slots.map((slot) => renderSlot(slot))}</div>;
}

/**
 * A headless transcript: messages, tool calls, slots (with their display strategies applied) and
 * the input, placed by `strategy`. Every render prop is mounted as its own component instance, so
 * hooks inside work; keys are message indexes, call ids and slot ids, so nothing remounts while
 * text streams.
 */
export function Render({
  glove,
  strategy = "interleaved",
  renderMessage = DefaultMessage,
  renderToolStatus = nothing,
  renderStreaming = DefaultStreaming,
  renderInput = DefaultInput,
  renderSlotContainer = DefaultSlotContainer,
  as = "div",
  className,
  style,
}: RenderProps): ReactNode {
  const { timeline, streamingText, busy, slots, sendMessage, abort, renderSlot, renderToolResult, connection } = glove;
  const shown = useMemo(() => visibleSlots(slots), [slots]);
  const items = useMemo(
    () => transcriptLayout(timeline, shown, streamingText, strategy),
    [timeline, shown, streamingText, strategy],
  );
  const callsWithSlot = useMemo(
    () => new Set(shown.map((slot) => slot.toolCallId).filter((id): id is string => Boolean(id))),
    [shown],
  );
  const lastIndex = timeline.length - 1;

  const children = items.map((item) => {
    switch (item.type) {
      case "entry": {
        const { entry, index } = item;
        if (entry.kind === "user" || entry.kind === "agent_text") {
          const props: MessageRenderProps = {
            entry: entry as UserEntry | AgentTextEntry,
            index,
            isLast: index === lastIndex && !streamingText,
          };
          return <Invoke key={entry.key} render={renderMessage} props={props} />;
        }
        if (entry.kind === "tool") {
          const hasSlot = callsWithSlot.has(entry.id);
          return (
            <Fragment key={entry.key}>
              <Invoke render={renderToolStatus} props={{ entry, index, hasSlot }} />
              {/* From history (e.g. after a reload) the result view stands in for the live slot. */}
              {hasSlot ? null : renderToolResult(entry)}
            </Fragment>
          );
        }
        if (entry.kind === "compaction") return <CompactionMarker key={entry.key} entry={entry} />;
        return null; // skill context: not something anyone typed
      }
      case "slot":
        return <Fragment key={`slot:${item.slot.id}`}>{renderSlot(item.slot)}</Fragment>;
      case "streaming":
        return <Invoke key="streaming" render={renderStreaming} props={{ text: item.text }} />;
      case "slots":
        return <Invoke key={item.key} render={renderSlotContainer} props={{ slots: item.slots, renderSlot }} />;
    }
  });
  const input = renderInput ? (
    <Invoke
      key="input"
      render={renderInput}
      props={{ send: sendMessage, busy, abort: () => void abort(), connection }}
    />
  ) : null;
  return createElement(as, { className, style, "data-glove-strategy": strategy }, children, input);
}
