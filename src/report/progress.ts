/** A progress event from a long operation (image builds, validation, self-play steps). */
export interface ProgressEvent {
  /** Short stage name, e.g. "debootstrap", "docker import", "setup". */
  stage: string;
  message: string;
  /** 0..1 when known. */
  fraction?: number;
}

export type ProgressSink = (event: ProgressEvent) => void;

export const silentProgress: ProgressSink = () => {};
