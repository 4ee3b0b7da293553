import type { Readable } from "node:stream";

/**
 * What a file store driver does (app/infra/file-store.server.ts picks one): the contract on its own, so the store
 * and its drivers both import it and not each other.
 */
export type StoredObject = { key: string; size: number; modifiedAt: number };

export interface FileStore {
  /** Stores the local file at `sourcePath` under `key`; the source is moved (or copied and removed). */
  putFile(key: string, sourcePath: string): Promise<{ size: number }>;
  /** The object's bytes as a stream, with its size and last change; null when there is none. */
  get(key: string): Promise<{ body: Readable; size: number; modifiedAt: number } | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` ("images/"), for the orphan sweep and the attachment quota. */
  list(prefix: string): AsyncIterable<StoredObject>;
}
