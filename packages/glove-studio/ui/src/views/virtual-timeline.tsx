import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from "react";
import type { Message, TurnTrace } from "../api.js";
import { MessageItem, onlyResults, resultsById, spanIndex } from "./timeline.js";

/** A row's height before it is measured; measured rows keep their own. */
const ESTIMATE = 90;
/** Within this many pixels of the end, the view follows new messages. */
const FOLLOW_PX = 48;

export interface TimelineControls {
  scrollToIndex(index: number): void;
  scrollToEnd(): void;
}

/**
 * The conversation's messages in a scrolling box that renders only the rows in view (and a few
 * around them) between two spacers, however long the conversation: rows are measured as they
 * render, so a tool call or a clipped payload takes the room it needs. Rows whose page is not
 * loaded yet show a placeholder while it loads (`ensure`). At the end, it follows new messages.
 */
export function VirtualTimeline({
  total,
  messageAt,
  loaded,
  ensure,
  traces,
  controls,
  highlight,
  rowActions,
}: {
  total: number;
  messageAt: (index: number) => Message | undefined;
  loaded: () => Message[];
  ensure: (start: number, end: number) => void;
  traces: TurnTrace[];
  controls: React.RefObject<TimelineControls | null>;
  /** A row found by "Find", outlined. */
  highlight: number | undefined;
  /** Buttons for a message's row (mounted: edit, fork from here). */
  rowActions?: ((message: Message, index: number) => ReactNode) | undefined;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATE,
    overscan: 6,
  });
  const items = virtual.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => ensure(first, last), [first, last, ensure]);

  controls.current = {
    scrollToIndex: (index) => virtual.scrollToIndex(index, { align: "center" }),
    scrollToEnd: () => virtual.scrollToIndex(Math.max(0, total - 1), { align: "end" }),
  };

  // Following the end: a view at the bottom stays there as messages arrive.
  const atEnd = useRef(true);
  const onScroll = () => {
    const box = scroller.current;
    if (box) atEnd.current = box.scrollHeight - box.scrollTop - box.clientHeight < FOLLOW_PX;
  };
  const previousTotal = useRef(total);
  useLayoutEffect(() => {
    if (total > previousTotal.current && atEnd.current && previousTotal.current > 0)
      virtual.scrollToIndex(total - 1, { align: "end" });
    previousTotal.current = total;
  }, [total, virtual]);

  const index = useMemo(() => spanIndex(traces), [traces]);
  const results = resultsById(loaded());
  return (
    <div className="timeline-scroller" ref={scroller} onScroll={onScroll} data-testid="timeline-scroller">
      <ol className="timeline" data-testid="timeline" style={{ height: virtual.getTotalSize(), position: "relative" }}>
        {items.map((item) => {
          const message = messageAt(item.index);
          const place = {
            "data-index": item.index,
            ref: virtual.measureElement,
            style: { position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` },
          } as const;
          if (!message)
            return (
              <li key={item.key} {...place} className="message-placeholder muted">
                Loading message {item.index + 1}…
              </li>
            );
          // A message of tool results only is shown on its calls: an empty row of no height.
          if (onlyResults(message)) return <li key={item.key} {...place} className="message-empty" />;
          return (
            <MessageItem
              key={item.key}
              {...place}
              message={message}
              resultsByCall={results}
              index={index}
              actions={rowActions?.(message, item.index)}
              aria-current={highlight === item.index ? "true" : undefined}
            />
          );
        })}
      </ol>
    </div>
  );
}
