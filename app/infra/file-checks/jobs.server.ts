import type { UploadKind } from "~/schemas/uploads";

/**
 * What the server asks the file-check process to do with one visitor's file, and what it answers. Types only: the
 * server's side (index.server.ts) imports this without loading any parser.
 */
export type FileCheckJob =
  | { check: "detect"; file: string; kind: UploadKind; originalName: string }
  | { check: "reencode"; source: string; target: string; kind: UploadKind; ext: string };

/** The file's type when this kind of upload takes it; "activePdf" for a PDF that runs or fetches something (or cannot be read to tell). */
export type Detected = { ext: string; mime: string } | "activePdf" | null;

/** A job as the runner writes it to the process's standard input, numbered so its answers can be told apart. */
export type FileCheckRequest = { id: number; job: FileCheckJob };

/**
 * One line of JSON each (with the job's id) on the process's standard output: the type the file's first bytes claim (so a check cut
 * short is refused with that type's message), then the outcome.
 */
export type FileCheckLine = { claimed: string } | { detected: Detected } | { reencoded: number } | { failed: string };
