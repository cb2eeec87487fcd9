let counter = 0;

/**
 * A new message id: the time first (base 36, fixed width), then a counter and randomness, so ids
 * sort in the order they were made — branch siblings are listed oldest first by id.
 */
export function newMessageId(): string {
  counter = (counter + 1) % 36 ** 4;
  const time = Date.now().toString(36).padStart(9, "0");
  return `msg_${time}${counter.toString(36).padStart(4, "0")}${crypto.randomUUID().slice(0, 8)}`;
}
