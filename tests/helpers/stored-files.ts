import fs from "node:fs";
import path from "node:path";

/**
 * Where the file store keeps a key on disk in these tests (the local driver under UPLOAD_DIR), so a test can
 * check what a save left behind.
 */
export function uploadRoot(): string {
  return path.resolve(process.env.UPLOAD_DIR!);
}

export function storedFilePath(key: string): string {
  return path.join(uploadRoot(), key);
}

/** The file of an enquiry attachment by its stored name. */
export function attachmentFile(storedName: string): string {
  return storedFilePath(`enquiries/${storedName}`);
}

/** Every file under the upload folder, as paths relative to it. */
export function filesOnDisk(): string[] {
  const root = uploadRoot();
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}
