import { GloveError } from "glove-core";

/** What went wrong, as a stable code: `EvalError.isInstance(e) && e.code === "GLOVE_EVAL_DATASET"`. */
export type EvalErrorCode =
  | "GLOVE_EVAL_DATASET"
  | "GLOVE_EVAL_CONFIG"
  | "GLOVE_EVAL_SCORER"
  | "GLOVE_EVAL_JUDGE"
  | "GLOVE_EVAL_RUN"
  | "GLOVE_EVAL_STORAGE"
  | "GLOVE_EVAL_BASELINE";

/** Every error glove-evals throws on purpose: a `GloveError` with one of the codes above. */
export class EvalError extends GloveError {
  override readonly code: EvalErrorCode;

  constructor(code: EvalErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, { code, ...(options?.cause === undefined ? {} : { cause: options.cause }) });
    this.name = "EvalError";
    this.code = code;
  }

  static override isInstance(error: unknown): error is EvalError {
    return GloveError.isInstance(error) && error.code.startsWith("GLOVE_EVAL_");
  }
}

/** A dataset file that cannot be used: which file, which line (1-based; 0 for the whole file), what is wrong. */
export class DatasetError extends EvalError {
  readonly file: string;
  readonly line: number;
  readonly issues: string[];

  constructor(file: string, line: number, issues: string[]) {
    const where = line > 0 ? `${file}:${line}` : file;
    super(
      "GLOVE_EVAL_DATASET",
      `${where}: ${issues.join("; ")}. Fix the item (or pass { skipInvalid: true } to run the others).`,
    );
    this.name = "DatasetError";
    this.file = file;
    this.line = line;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is DatasetError {
    return EvalError.isInstance(error) && error.code === "GLOVE_EVAL_DATASET" && "line" in error;
  }
}
