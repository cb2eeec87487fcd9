import { getToolName, type DynamicToolUIPart, type ToolUIPart } from "ai";

export interface ToolPartProps {
  part: ToolUIPart | DynamicToolUIPart;
  onApproval(answer: { id: string; approved: boolean }): void;
}

/** A tool call as useChat describes it: name, input, state, output, and Approve/Deny while it waits for approval. */
export function ToolPart({ part, onApproval }: ToolPartProps) {
  return (
    <section data-tool={getToolName(part)} data-state={part.state}>
      <strong>{getToolName(part)}</strong> <code data-testid="tool-input">{JSON.stringify(part.input)}</code>
      {part.state === "approval-requested" && (
        <span>
          <button type="button" onClick={() => onApproval({ id: part.approval.id, approved: true })}>
            Approve
          </button>
          <button type="button" onClick={() => onApproval({ id: part.approval.id, approved: false })}>
            Deny
          </button>
        </span>
      )}
      {part.state === "output-available" && <code data-testid="tool-output">{JSON.stringify(part.output)}</code>}
      {part.state === "output-error" && <em data-testid="tool-error">{part.errorText}</em>}
      {part.state === "output-denied" && <em data-testid="tool-denied">Denied</em>}
    </section>
  );
}
