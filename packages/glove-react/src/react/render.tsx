import { createElement, Fragment, useMemo, type CSSProperties, type ReactNode } from "react";
import {
  visibleSlots,
  type ClientSlot,
  type AgentTextEntry,
  type TimelineEntry,
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

/** Where slots go: after the call that pushed them, all before or after the transcript, or alone. */
export type RenderStrategy = "interleaved" | "slots-before" | "slots-after" | "slots-only";

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

type Item =
  | { type: "entry"; entry: TimelineEntry; index: number }
  | { type: "slot"; slot: ClientSlot }
  | { type: "streaming"; text: string }
  | { type: "slots"; slots: ClientSlot[]; key: string };

const nothing = (): ReactNode => null;

function DefaultSlotContainer({ slots, renderSlot }: SlotContainerRenderProps): ReactNode {
  return <div data-glove-role="slots">{slots.map((slot) => renderSlot(slot))}</div>;
}

/** The order things are drawn in, for a strategy. */
function layout(
  timeline: readonly TimelineEntry[],
  slots: ClientSlot[],
  streamingText: string,
  strategy: RenderStrategy,
): Item[] {
  if (strategy === "slots-only") return [{ type: "slots", slots, key: "slots" }];
  const items: Item[] = [];
  if (strategy === "slots-before" && slots.length) items.push({ type: "slots", slots, key: "slots-before" });
  const byCall = new Map<string, ClientSlot[]>();
  if (strategy === "interleaved") {
    for (const slot of slots)
      if (slot.toolCallId) byCall.set(slot.toolCallId, [...(byCall.get(slot.toolCallId) ?? []), slot]);
  }
  const placed = new Set<string>();
  timeline.forEach((entry, index) => {
    items.push({ type: "entry", entry, index });
    if (entry.kind !== "tool") return;
    for (const slot of byCall.get(entry.id) ?? []) {
      if (placed.has(slot.id)) continue;
      placed.add(slot.id);
      items.push({ type: "slot", slot });
    }
  });
  // The running call's text belongs before messages still waiting for their turn.
  if (streamingText) {
    const queued = items.findIndex(
      (item) => item.type === "entry" && item.entry.kind === "user" && item.entry.status === "queued",
    );
    items.splice(queued === -1 ? items.length : queued, 0, { type: "streaming", text: streamingText });
  }
  // Interleaved: slots whose call is not in the transcript (yet) still show, at the end.
  if (strategy === "interleaved")
    for (const slot of slots) if (!placed.has(slot.id)) items.push({ type: "slot", slot });
  if (strategy === "slots-after" && slots.length) items.push({ type: "slots", slots, key: "slots-after" });
  return items;
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
    () => layout(timeline, shown, streamingText, strategy),
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
