/** The tokens and history both chats show (shared by the page and the tests; no DOM). */
const WORDS = [
  "the ",
  "kitchen ",
  "closes ",
  "at ",
  "ten, ",
  "but ",
  "the ",
  "bar ",
  "stays ",
  "open; ",
  "ask ",
  "for ",
  "a ",
  "table ",
  "by ",
  "the ",
  "window. ",
];

export function tokenAt(i: number): string {
  return WORDS[i % WORDS.length]!;
}

/** The whole text of `count` tokens. */
export function fullText(count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) text += tokenAt(i);
  return text;
}

/** Message `i` of the history (alternating user / agent), the same for both chats. */
export function historyText(i: number): string {
  return i % 2 === 0
    ? `Question ${i / 2 + 1}: is there a table for ${(i % 6) + 2} at eight?`
    : `Answer ${(i + 1) / 2}: yes, table ${i} by the window is free at eight.`;
}
