import { useState } from "react";

const STEP = 4000;

/**
 * Text shown as text (React escapes it: stored HTML and scripts stay inert), clipped so a huge
 * payload costs nothing until asked for; "Show more" reveals it in steps.
 */
export function ClippedText({ text, as = "div" }: { text: string; as?: "div" | "pre" }) {
  const [shown, setShown] = useState(STEP);
  const clipped = text.length > shown;
  const Tag = as;
  return (
    <Tag className={as === "pre" ? "clip pre" : "clip"}>
      {clipped ? text.slice(0, shown) : text}
      {clipped && (
        <>
          <span className="muted">… ({(text.length - shown).toLocaleString()} more characters) </span>
          <button type="button" className="link" onClick={() => setShown((n) => n + STEP * 5)}>
            Show more
          </button>
        </>
      )}
    </Tag>
  );
}

/** A value as indented JSON, clipped like any text. */
export function JsonBlock({ value }: { value: unknown }) {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  return <ClippedText text={text} as="pre" />;
}
