import { useCallback, useEffect, useRef, useState } from "react";
import { api, type Message } from "../api.js";

/** Messages per request; a page is loaded when a row of it comes into view. */
export const MESSAGE_PAGE = 200;

const pageOf = (index: number) => Math.floor(index / MESSAGE_PAGE);

/**
 * A conversation's messages as sparse pages: only those around what is on screen are loaded (a
 * 100 000-message conversation costs a few pages), the total is known from the first answer.
 */
export function useMessagePages(id: string) {
  const pages = useRef(new Map<number, Message[]>());
  const loading = useRef(new Set<number>());
  const range = useRef<[number, number]>([0, 0]);
  const [total, setTotal] = useState<number | undefined>();
  const [, setVersion] = useState(0);
  const [error, setError] = useState<string | undefined>();

  // Answers for another conversation (the page moved on while they were read) are dropped.
  const current = useRef(id);
  useEffect(() => {
    current.current = id;
    pages.current = new Map();
    loading.current = new Set();
    range.current = [0, 0];
    setTotal(undefined);
  }, [id]);

  const fetchPages = useCallback(
    async (wanted: number[]) => {
      const answers = await Promise.all(wanted.map((p) => api.messages(id, p * MESSAGE_PAGE, MESSAGE_PAGE)));
      if (current.current !== id) return undefined;
      return answers.map((answer, i) => [wanted[i]!, answer] as const);
    },
    [id],
  );

  /** Loads the pages of rows [start, end] that are not loaded yet. */
  const ensure = useCallback(
    (start: number, end: number) => {
      range.current = [start, end];
      const missing: number[] = [];
      for (let p = pageOf(start); p <= pageOf(Math.max(start, end)); p++)
        if (!pages.current.has(p) && !loading.current.has(p)) missing.push(p);
      if (missing.length === 0) return;
      for (const p of missing) loading.current.add(p);
      void fetchPages(missing)
        .then((answers) => {
          if (!answers) return;
          for (const [p, answer] of answers) pages.current.set(p, answer.messages);
          setTotal(answers.at(-1)![1].total);
          setVersion((v) => v + 1);
        })
        .catch((e: Error) => {
          if (current.current === id) setError(e.message);
        })
        .finally(() => {
          for (const p of missing) loading.current.delete(p);
        });
    },
    [fetchPages, id],
  );

  /**
   * Reads again what is on screen and the last page (new messages land at the end; a regenerate
   * or an edit may change any), and forgets the rest: it is read again when it comes into view.
   */
  const reload = useCallback(async () => {
    const [start, end] = range.current;
    const known = total ?? 0;
    const wanted = new Set<number>([pageOf(Math.max(0, known - 1))]);
    for (let p = pageOf(start); p <= pageOf(Math.max(start, end)); p++) wanted.add(p);
    const answers = await fetchPages([...wanted].sort((a, b) => a - b));
    if (!answers) return;
    const next = new Map<number, Message[]>();
    for (const [p, answer] of answers) next.set(p, answer.messages);
    pages.current = next;
    setTotal(answers.at(-1)![1].total);
    setVersion((v) => v + 1);
    setError(undefined);
  }, [fetchPages, total]);

  const messageAt = useCallback((index: number) => pages.current.get(pageOf(index))?.[index % MESSAGE_PAGE], []);

  /** Every message loaded now (a call's result is found in them, usually the next message). */
  const loaded = useCallback(() => [...pages.current.values()].flat(), []);

  return { total, messageAt, loaded, ensure, reload, error };
}
