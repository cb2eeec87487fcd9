import { GloveError } from "glove-core/errors";
import type { ErrorInfo } from "../types/wire.js";

/** A thrown value as something a UI can show: a stable code and a readable message. */
export function toErrorInfo(error: unknown, fallbackCode = "GLOVE_ERROR"): ErrorInfo {
  if (GloveError.isInstance(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: fallbackCode, message: error.message };
  return { code: fallbackCode, message: String(error) };
}
