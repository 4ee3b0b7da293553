import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadEnv } from "~/env.server";
import { BACKUP_KEY_FILE, BackupKeyMissing, manifestSignedBy, signingKey, signManifest, verifyingKey } from "./backup-signature.server";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "backup-key-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the backup key", () => {
  it("is BACKUP_KEY when set, wherever the app runs", () => {
    const key = signingKey({ e: loadEnv({ BACKUP_KEY: "k".repeat(40) }), root });
    expect(key).toEqual({ key: Buffer.from("k".repeat(40)), source: "BACKUP_KEY" });
    expect(fs.existsSync(path.join(root, BACKUP_KEY_FILE))).toBe(false);
  });

  it("outside production without BACKUP_KEY: made once in data/backup-key (0600, in a 0700 folder), then read", () => {
    const e = loadEnv({});
    expect(verifyingKey({ e, root })).toBeNull();
    const made = signingKey({ e, root });
    const file = path.join(root, BACKUP_KEY_FILE);
    expect(made.source).toBe(file);
    expect(made.key.length).toBeGreaterThanOrEqual(64);
    expect((fs.statSync(file).mode & 0o7777).toString(8)).toBe("600");
    expect((fs.statSync(path.dirname(file)).mode & 0o7777).toString(8)).toBe("700");
    expect(signingKey({ e, root })).toEqual(made);
    expect(verifyingKey({ e, root })).toEqual(made);
  });

  it("in production without BACKUP_KEY: no archive is made, and none can be checked", () => {
    const e = loadEnv({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(32) });
    expect(() => signingKey({ e, root })).toThrow(BackupKeyMissing);
    expect(() => signingKey({ e, root })).toThrow(/BACKUP_KEY is not set: in production every archive is signed with it/);
    // Even with a data/backup-key lying about: production keys come from the environment only.
    expect(verifyingKey({ e, root })).toBeNull();
  });

  it("signs the manifest's bytes as openssl dgst -sha256 -hmac does, and a changed byte or key fails", () => {
    const key = { key: Buffer.from("the operator's key, kept apart from the archives"), source: "BACKUP_KEY" };
    const manifest = Buffer.from('{"format":"cybersoc-backup"}\n');
    const signature = Buffer.from(signManifest(manifest, key));
    // printf '{"format":"cybersoc-backup"}\n' | openssl dgst -sha256 -hmac "the operator's key, kept apart from the archives"
    expect(signature.toString()).toBe("f7a504d27c2ec660302c2161ae68246bda51153ff08c625a6f96d0c6723784bb\n");
    expect(manifestSignedBy(manifest, signature, key)).toBe(true);
    expect(manifestSignedBy(Buffer.from('{"format":"cybersoc-backuq"}\n'), signature, key)).toBe(false);
    expect(manifestSignedBy(manifest, signature, { ...key, key: Buffer.from("another key, 32 characters long or more") })).toBe(false);
    expect(manifestSignedBy(manifest, Buffer.from("not hex"), key)).toBe(false);
  });
});
