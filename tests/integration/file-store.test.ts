import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isStoreKey } from "~/infra/file-store.server";
import { localDiskStore } from "~/infra/file-store-local.server";

/** The file store's local-disk driver: what every upload, download, delete and the sweep go through. */
describe("the local-disk file store", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "soc-store-"));
  const store = localDiskStore(root);
  const scratch = (content: string) => {
    const file = path.join(os.tmpdir(), `soc-scratch-${Math.random().toString(36).slice(2)}`);
    fs.writeFileSync(file, content);
    return file;
  };

  it("takes a file under a key, streams it back with its size, lists and deletes it", async () => {
    const source = scratch("hello store");
    expect(await store.putFile("syllabus/abc.pdf", source)).toEqual({ size: 11 });
    expect(fs.existsSync(source)).toBe(false);
    const got = await store.get("syllabus/abc.pdf");
    expect(got?.size).toBe(11);
    const chunks: Buffer[] = [];
    for await (const chunk of got!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe("hello store");
    const listed = [];
    for await (const o of store.list("syllabus/")) listed.push(o.key);
    expect(listed).toEqual(["syllabus/abc.pdf"]);
    await store.delete("syllabus/abc.pdf");
    await store.delete("syllabus/abc.pdf");
    expect(await store.get("syllabus/abc.pdf")).toBeNull();
  });

  it("lists nothing for a folder never written, and refuses keys outside its root", async () => {
    const listed = [];
    for await (const o of store.list("images/")) listed.push(o);
    expect(listed).toEqual([]);
    await expect(store.get("../../etc/passwd")).rejects.toThrow(/Not a key/);
    expect(isStoreKey("images/../x")).toBe(false);
    expect(isStoreKey("enquiries/0123456789abcdef0123456789abcdef-cv.pdf")).toBe(true);
  });
});
