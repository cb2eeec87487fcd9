import {
  ActionBarPrimitive,
  BranchPickerPrimitive,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadPrimitive,
  type ToolCallMessagePartProps,
} from "@assistant-ui/react";
import { Interrupts } from "./interrupts.js";

function UserMessage() {
  return (
    <MessagePrimitive.Root className="message user" data-role="user">
      <div className="content">
        <MessagePrimitive.Parts />
      </div>
      <ActionBarPrimitive.Root className="actions" hideWhenRunning>
        <ActionBarPrimitive.Edit>Edit</ActionBarPrimitive.Edit>
      </ActionBarPrimitive.Root>
    </MessagePrimitive.Root>
  );
}

/** Editing a message: sent, the thread continues from the new text (an edit on the server). */
function UserEditComposer() {
  return (
    <ComposerPrimitive.Root className="message user edit">
      <ComposerPrimitive.Input aria-label="Edit message" />
      <ComposerPrimitive.Cancel>Cancel</ComposerPrimitive.Cancel>
      <ComposerPrimitive.Send>Save</ComposerPrimitive.Send>
    </ComposerPrimitive.Root>
  );
}

/** A tool call the agent made, as one line (the agent's tools run on the server). */
function ToolLine({ toolName, result }: ToolCallMessagePartProps) {
  return (
    <span className="tool" data-tool={toolName}>
      {toolName} {result === undefined ? "…" : "✓"}
    </span>
  );
}

function AssistantMessage() {
  return (
    <MessagePrimitive.Root className="message assistant" data-role="assistant">
      <div className="content">
        <MessagePrimitive.Parts components={{ tools: { Fallback: ToolLine } }} />
      </div>
      <div className="actions">
        {/* assistant-ui's answers kept side by side; the server keeps the same branches (a regenerate there). */}
        <BranchPickerPrimitive.Root hideWhenSingleBranch className="branches" aria-label="Branches">
          <BranchPickerPrimitive.Previous>‹</BranchPickerPrimitive.Previous>
          <BranchPickerPrimitive.Number />/<BranchPickerPrimitive.Count />
          <BranchPickerPrimitive.Next>›</BranchPickerPrimitive.Next>
        </BranchPickerPrimitive.Root>
        <ActionBarPrimitive.Root hideWhenRunning autohide="not-last">
          <ActionBarPrimitive.Reload>Regenerate</ActionBarPrimitive.Reload>
        </ActionBarPrimitive.Root>
      </div>
    </MessagePrimitive.Root>
  );
}

/** The thread, the questions the agent waits on (AG-UI interrupts), and the composer. */
export function Chat() {
  return (
    <ThreadPrimitive.Root className="thread">
      <h1>Glove Bistro · assistant-ui over AG-UI</h1>
      <ThreadPrimitive.Viewport className="viewport">
        <ThreadPrimitive.Messages components={{ UserMessage, AssistantMessage, UserEditComposer }} />
      </ThreadPrimitive.Viewport>
      <Interrupts />
      <ComposerPrimitive.Root className="composer">
        <ComposerPrimitive.Input placeholder="Ask the bistro…" aria-label="Message" />
        <ComposerPrimitive.Send>Send</ComposerPrimitive.Send>
      </ComposerPrimitive.Root>
    </ThreadPrimitive.Root>
  );
}
