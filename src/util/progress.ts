/**
 * The progress contract of long operations (image builds, validation, self-play steps). It lives
 * on the ground floor so the layers that report progress (sandbox, validator) need nothing from
 * the layers that render it (`util/progress-display.ts`, the CLI): arrows point down.
 */

/** A progress event from a long operation. */
export interface ProgressEvent {
  /** Short stage name, e.g. "debootstrap", "docker import", "setup". */
  stage: string;
  message: string;
  /** 0..1 when known. */
  fraction?: number;
}

/** Where a long operation sends its progress; the caller decides how (or whether) to show it. */
export type ProgressSink = (event: ProgressEvent) => void;

/** A sink that drops every event (tests, benchmarks, quiet runs). */
export const silentProgress: ProgressSink = () => {};
