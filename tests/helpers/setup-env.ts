import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";

// Every test file gets its own upload folder and a fixed secret; databases come from useTestDatabase().
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET ??= "test-secret-0123456789-0123456789-0123456789";
process.env.UPLOAD_DIR = path.join(os.tmpdir(), `soc-test-uploads-${randomBytes(6).toString("hex")}`);
process.env.SEED_DEMO = "false";
process.env.RATE_LIMIT ??= "off";
// Archives made in-process are signed with this key (never with a data/backup-key made in the checkout).
process.env.BACKUP_KEY ??= "test-backup-key-0123456789-0123456789-0123456789";
