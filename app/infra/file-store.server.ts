import { env } from "~/env.server";
import type { FileStore } from "./file-store-driver";
import { localDiskStore } from "./file-store-local.server";

/**
 * Where uploaded files live once they are checked: course images, syllabus files, enquiry attachments. Every
 * upload, download, delete and the orphan sweep go through this interface, so several app instances can share
 * one store (a shared volume today; an S3-compatible bucket would be another driver with the same four calls,
 * and no route would change). Keys are "<folder>/<name>": images/, syllabus/ or enquiries/.
 */
export const STORE_FOLDERS = ["images", "syllabus", "enquiries"] as const;
export type StoreFolder = (typeof STORE_FOLDERS)[number];

const KEY = /^(images|syllabus|enquiries)\/[\w\- ()][\w.\- ()]{0,159}$/;

/** A key this app makes: a known folder and a plain file name (no path, no dot-dot, not "." or a hidden name). */
export function isStoreKey(key: string): boolean {
  return KEY.test(key) && !key.includes("..");
}

let store: FileStore | undefined;
let storeRoot: string | undefined;

/** The configured store: files on disk under UPLOAD_DIR (for several machines, a shared volume mounted there). */
export function fileStore(): FileStore {
  const root = env().UPLOAD_DIR;
  if (!store || storeRoot !== root) {
    store = localDiskStore(root);
    storeRoot = root;
  }
  return store;
}
