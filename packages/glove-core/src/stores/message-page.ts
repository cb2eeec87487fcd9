/** The most messages one `getMessagePage` call returns. */
export const MAX_MESSAGE_PAGE = 1000;

/**
 * `getMessagePage`'s arguments checked the same way by every store: a non-negative integer
 * offset and a limit from 1 to MAX_MESSAGE_PAGE, else the store's GLOVE_STORE_INVALID error.
 */
export function checkedPage(
  offset: unknown,
  limit: unknown,
  invalid: (detail: string) => Error,
): [offset: number, limit: number] {
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) {
    throw invalid(`getMessagePage(offset, limit): offset must be an integer ≥ 0, got ${String(offset)}.`);
  }
  if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_MESSAGE_PAGE) {
    throw invalid(
      `getMessagePage(offset, limit): limit must be an integer from 1 to ${MAX_MESSAGE_PAGE}, got ${String(limit)}.`,
    );
  }
  return [offset as number, limit as number];
}
