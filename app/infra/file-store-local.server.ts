import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { mkdirOwnerOnly, OWNER_FILE_MODE } from "~/util/owner-only-files.server";
import type { FileStore, StoredObject } from "./file-store-driver";

/**
 * The file store on a local (or network-mounted) disk: <root>/<folder>/<name>. Writes go to a temporary name
 * next to the target and are renamed into place, so a reader (another instance on the same volume) never sees
 * half a file. Folders are 0700 and files 0600 (app/util/owner-only-files.server.ts).
 */
export function localDiskStore(rootDir: string): FileStore {
  const root = path.resolve(rootDir);
  const pathOf = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(root + path.sep)) throw new Error(`Not a key of this store: ${key}`);
    return full;
  };
  return {
    async putFile(key, sourcePath) {
      const target = pathOf(key);
      await mkdirOwnerOnly(path.dirname(target));
      try {
        // Owner-only whatever made the source (sharp's output, a restore's unpacked file) and whatever its bits.
        await fsp.chmod(sourcePath, OWNER_FILE_MODE);
        await fsp.rename(sourcePath, target);
      } catch (error) {
        // Another filesystem (a temporary folder elsewhere): copy under a temporary name, then rename.
        if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
        const partial = `${target}.partial-${process.pid}`;
        await fsp.copyFile(sourcePath, partial);
        await fsp.chmod(partial, OWNER_FILE_MODE);
        await fsp.rename(partial, target);
        await fsp.rm(sourcePath, { force: true });
      }
      return { size: (await fsp.stat(target)).size };
    },
    async get(key) {
      const file = pathOf(key);
      const stat = await fsp.stat(file).catch(() => null);
      if (!stat?.isFile()) return null;
      return { body: fs.createReadStream(file), size: stat.size, modifiedAt: stat.mtimeMs };
    },
    async delete(key) {
      await fsp.rm(pathOf(key), { force: true });
    },
    async *list(prefix) {
      const dir = pathOf(`${prefix.replace(/\/$/, "")}/x`).replace(/[\\/]x$/, "");
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isFile() || entry.name.includes(".partial-")) continue;
        const stat = await fsp.stat(path.join(dir, entry.name)).catch(() => null);
        if (stat) yield { key: `${prefix.replace(/\/$/, "")}/${entry.name}`, size: stat.size, modifiedAt: stat.mtimeMs } satisfies StoredObject;
      }
    },
  };
}
