import { createRequire } from "node:module";
import { hash, verify } from "@node-rs/argon2";
import type * as CommonLists from "@zxcvbn-ts/language-common";
import { checkCommonPasswordsWith, PASSWORD_MIN_LENGTH } from "~/schemas/user";

// argon2id (algorithm 2) with OWASP's minimum: 19 MiB memory, 2 iterations, 1 lane.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** Spends the same time as a real check, so a login for an unknown e-mail is not faster than a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword("timing-equaliser-password");
  await verifyPassword(await dummy, password);
}

/** How many passwords are refused: the most common ones that are long enough to pass the length rule. */
export const COMMON_PASSWORD_COUNT = 10_000;
let commonPasswords: Set<string> | undefined;

/**
 * Whether a password is one of the 10,000 most common of 8 characters or more, in any mix of capitals. The source
 * is the ranked list of leaked passwords (most common first) that zxcvbn-ts ships in @zxcvbn-ts/language-common.
 * Shorter ones are left out: the length rule refuses them anyway, and two in three of the list's first 10,000 are
 * shorter; so the set reaches "admin123" and "Welcome123" (ranks 12,412 and 16,276), down to rank 27,667 of 49,233.
 * The list is read on the first check, once, into a set of lower-case passwords; a server that never sets a
 * password never reads it.
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadCommonPasswords();
  return commonPasswords.has(password.toLowerCase());
}

function loadCommonPasswords(): Set<string> {
  const load = createRequire(import.meta.url);
  const { dictionary } = load("@zxcvbn-ts/language-common") as typeof CommonLists;
  const set = new Set<string>();
  for (const password of dictionary["passwords-common"]) {
    if (set.size === COMMON_PASSWORD_COUNT) break;
    if (password.length >= PASSWORD_MIN_LENGTH) set.add(password.toLowerCase());
  }
  return set;
}

// Every schema that takes a new password (app/schemas/user.ts) refuses these from now on.
checkCommonPasswordsWith(isCommonPassword);
