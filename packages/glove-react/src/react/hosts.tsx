import { Component, type ErrorInfo as ReactErrorInfo, type ReactNode } from "react";
import type { SlotAnswerResult, ClientSlot } from "glove-client";
import type { SlotRenderer, SlotRenderProps, ToolResultRenderer, ToolResultRenderProps } from "../types/tool.js";
import { UnknownRenderer } from "./default-renderers.js";

/**
 * Calls a render prop inside its own component instance. The function is passed as a prop, not
 * used as the element type: hooks inside it belong to this instance and keep their state, and an
 * inline arrow (a new function every render) does not remount the subtree on every frame.
 */
export function Invoke<P>({ render, props }: { render: (props: P) => ReactNode; props: P }): ReactNode {
  return render(props);
}

/** Keeps one broken renderer from taking the whole transcript down. */
export class RenderBoundary extends Component<{ label: string; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ReactErrorInfo): void {
    console.error(`[glove-react] ${this.props.label} threw while rendering`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" data-glove-role="render-error">
        {this.props.label} could not be shown: {this.state.error.message}
      </div>
    );
  }
}

export interface SlotHostProps {
  slot: ClientSlot;
  render: SlotRenderer | undefined;
  resolveSlot(slotId: string, value: unknown): Promise<SlotAnswerResult>;
  rejectSlot(slotId: string, reason?: string): Promise<SlotAnswerResult>;
}

/** One slot: its renderer (or the visible fallback), answerable only while pending. */
export function SlotHost({ slot, render, resolveSlot, rejectSlot }: SlotHostProps): ReactNode {
  const pending = slot.status === "pending";
  const props: SlotRenderProps = {
    props: slot.input,
    data: slot.input,
    resolve: (value?: unknown) => {
      if (pending) void resolveSlot(slot.id, value);
    },
    reject: (reason?: string) => {
      if (pending) void rejectSlot(slot.id, reason);
    },
    status: slot.status,
    issues: slot.issues,
    slot,
  };
  return (
    <RenderBoundary label={`The "${slot.renderer}" slot`}>
      <Invoke render={render ?? UnknownRenderer} props={props} />
    </RenderBoundary>
  );
}

/** A finished call from history, drawn by its tool's `renderResult`. */
export function ResultHost({
  render,
  props,
  name,
}: {
  render: ToolResultRenderer;
  props: ToolResultRenderProps;
  name: string;
}): ReactNode {
  return (
    <RenderBoundary label={`The result of "${name}"`}>
      <Invoke render={render} props={props} />
    </RenderBoundary>
  );
}
