/**
 * Regenerate, edit and the branch picker (decision 0025 of glove-core): the actions come from
 * `useGlove` through a context, so the message renderer `Render` calls stays a plain component.
 */
import { createContext, useContext, useState, type FormEvent, type ReactNode } from "react";
import type { BranchActionResult, EntryBranch, UseGloveReturn } from "glove-react";

type Actions = Pick<UseGloveReturn, "regenerate" | "editMessage" | "switchBranch" | "busy">;

export const BranchActions = createContext<Actions | null>(null);

function useActions(): Actions {
  const actions = useContext(BranchActions);
  if (!actions) throw new Error("Wrap the transcript in <BranchActions.Provider>.");
  return actions;
}

/** A refusal worth telling the user (another tab won, a question waits…); kept until the next action. */
function useRefusal(): [string | null, (result: BranchActionResult) => void] {
  const [refusal, setRefusal] = useState<string | null>(null);
  return [refusal, (result) => setRefusal(result.ok ? null : result.message)];
}

/** "‹ 2/3 ›": which alternative is shown, and buttons to the others. */
export function BranchPicker({ branch }: { branch: EntryBranch | undefined }): ReactNode {
  const { switchBranch, busy } = useActions();
  const [refusal, report] = useRefusal();
  if (!branch) return null;
  const go = (to: number) => void switchBranch(branch.siblings[to]!).then(report);
  return (
    <span className="branches meta" data-testid="branch-picker">
      <button
        type="button"
        className="link"
        aria-label="Previous version"
        disabled={busy || branch.index === 0}
        onClick={() => go(branch.index - 1)}
      >
        ‹
      </button>
      <span data-testid="branch-position">
        {branch.index + 1}/{branch.count}
      </span>
      <button
        type="button"
        className="link"
        aria-label="Next version"
        disabled={busy || branch.index === branch.count - 1}
        onClick={() => go(branch.index + 1)}
      >
        ›
      </button>
      {refusal ? <span role="alert"> {refusal}</span> : null}
    </span>
  );
}

/** Regenerate under the last answer. */
export function RegenerateButton(): ReactNode {
  const { regenerate, busy } = useActions();
  const [refusal, report] = useRefusal();
  return (
    <span className="meta">
      {" "}
      <button type="button" className="link" disabled={busy} onClick={() => void regenerate().then(report)}>
        Regenerate
      </button>
      {refusal ? <span role="alert"> {refusal}</span> : null}
    </span>
  );
}

/** A stored user message with an Edit button; editing shows a field whose Save resends from there. */
export function EditableText({ messageId, text }: { messageId: string; text: string }): ReactNode {
  const { editMessage, busy } = useActions();
  const [editing, setEditing] = useState(false);
  const [refusal, report] = useRefusal();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem("edit") as HTMLInputElement | null;
    const edited = field?.value.trim();
    if (!edited) return;
    setEditing(false);
    void editMessage(messageId, edited).then(report);
  };
  if (editing) {
    return (
      <form className="edit" onSubmit={onSubmit}>
        <input name="edit" aria-label="Edit message" defaultValue={text} autoFocus />
        <button type="submit" className="primary">
          Save
        </button>
        <button type="button" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <>
      {text}{" "}
      <button type="button" className="link meta" disabled={busy} onClick={() => setEditing(true)}>
        Edit
      </button>
      {refusal ? (
        <span role="alert" className="meta">
          {" "}
          {refusal}
        </span>
      ) : null}
    </>
  );
}
