/**
 * API keys. A key is `cat_live_` + 32 random bytes in base64url, shown once when created;
 * the keys file keeps only its SHA-256. A fast hash is right here: the key carries 256 bits
 * of randomness, so there is nothing to brute-force and a slow password hash (bcrypt,
 * scrypt) would only add latency to every request.
 *
 * Keys file (JSON, written atomically through a temporary file and a rename):
 *   {"version":1,"workspaces":{"acme":{"plan":"pro"}},
 *    "keys":[{"key_id":"key_…","sha256":"…","workspace":"acme","created_at":"…","revoked_at":null}]}
 * A key belongs to a workspace and the workspace has a plan; creating a key for an existing
 * workspace with another plan is refused unless `changePlan` is set, and then moves the whole
 * workspace to that plan.
 *
 * Every read-modify-write of the file (create, revoke) holds the lock file `<keys file>.lock`
 * (src/lib/file-lock.ts), so concurrent `catalog keys` commands never lose each other's writes.
 */
import { randomBytes } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { type Clock, systemClock, toIsoSeconds } from "../lib/clock.js";
import { CatalogError } from "../lib/errors.js";
import { withLock } from "../lib/file-lock.js";
import { sha256Hex } from "../lib/hash.js";
import type { Logger } from "../lib/logger.js";
import { ANONYMOUS_PLAN, type PlansFile } from "./plans.js";

export const KEY_PREFIX = "cat_live_";
/** 32 bytes in base64url without padding are 43 characters. */
const KEY_SHAPE = /^cat_live_[A-Za-z0-9_-]{43}$/;
const WORKSPACE = /^[A-Za-z0-9._-]{1,64}$/;
const PLAN = /^[A-Za-z0-9._-]{1,64}$/;

const KeyRecord = z.strictObject({
  key_id: z.string().regex(/^key_[0-9a-f]{16}$/),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  workspace: z.string().regex(WORKSPACE),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

const KeysFileContent = z.strictObject({
  version: z.literal(1),
  workspaces: z.record(z.string().regex(WORKSPACE), z.strictObject({ plan: z.string().regex(PLAN) })),
  keys: z.array(KeyRecord),
});
type KeysFileContent = z.infer<typeof KeysFileContent>;

export interface KeyListing {
  key_id: string;
  workspace: string;
  plan: string;
  created_at: string;
  revoked_at: string | null;
}

export function hashKey(key: string): string {
  return sha256Hex(key);
}

export function isWellFormedKey(key: string): boolean {
  return KEY_SHAPE.test(key);
}

async function readKeysFile(path: string): Promise<KeysFileContent> {
  let raw: string;
  try {
    raw = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, workspaces: {}, keys: [] };
    throw new CatalogError("io_failed", `cannot read keys file ${path}`, {}, { cause: error });
  }
  try {
    return KeysFileContent.parse(JSON.parse(raw));
  } catch (error) {
    throw new CatalogError(
      "invalid_argument",
      `keys file ${path} is not a valid keys file`,
      {},
      { cause: error },
    );
  }
}

async function writeKeysFile(path: string, content: KeysFileContent): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
}

/** How long a keys command waits for another one holding the keys file's lock. */
const KEYS_LOCK_WAIT_MS = 15_000;

function lockedKeysFile<T>(keysFile: string, fn: () => Promise<T>): Promise<T> {
  return withLock(`${keysFile}.lock`, { waitMs: KEYS_LOCK_WAIT_MS, what: `keys file ${keysFile}` }, fn);
}

export interface CreateKeyOptions {
  clock?: Clock;
  /** When given, a plan these plans do not define is refused. */
  plans?: PlansFile;
  /** Allow moving an existing workspace to another plan (otherwise refused). */
  changePlan?: boolean;
}

/** Creates a key for `workspace` on `plan`; returns the key itself (shown once) and its id. */
export async function createKey(
  keysFile: string,
  workspace: string,
  plan: string,
  options: CreateKeyOptions = {},
): Promise<{ keyId: string; key: string; previousPlan: string | null }> {
  if (!WORKSPACE.test(workspace))
    throw new CatalogError("invalid_argument", "workspace must be 1-64 characters of [A-Za-z0-9._-]");
  if (!PLAN.test(plan))
    throw new CatalogError("invalid_argument", "plan must be 1-64 characters of [A-Za-z0-9._-]");
  if (options.plans && (!Object.hasOwn(options.plans.plans, plan) || plan === ANONYMOUS_PLAN))
    throw new CatalogError(
      "invalid_argument",
      `plan "${plan}" is not defined; plans: ${Object.keys(options.plans.plans)
        .filter((p) => p !== ANONYMOUS_PLAN)
        .join(", ")}`,
    );
  return lockedKeysFile(keysFile, async () => {
    const content = await readKeysFile(keysFile);
    const previousPlan = Object.hasOwn(content.workspaces, workspace)
      ? (content.workspaces[workspace]?.plan ?? null)
      : null;
    if (previousPlan !== null && previousPlan !== plan && !options.changePlan)
      throw new CatalogError(
        "invalid_argument",
        `workspace ${workspace} is on plan "${previousPlan}"; creating a key on plan "${plan}" would move the whole workspace (pass --change-plan to do that)`,
      );
    const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const keyId = `key_${randomBytes(8).toString("hex")}`;
    content.workspaces[workspace] = { plan };
    content.keys.push({
      key_id: keyId,
      sha256: hashKey(key),
      workspace,
      created_at: toIsoSeconds((options.clock ?? systemClock).now()),
      revoked_at: null,
    });
    await writeKeysFile(keysFile, content);
    return { keyId, key, previousPlan };
  });
}

/** Revokes an active key; false when no active key has that id. */
export async function revokeKey(
  keysFile: string,
  keyId: string,
  clock: Clock = systemClock,
): Promise<boolean> {
  return lockedKeysFile(keysFile, async () => {
    const content = await readKeysFile(keysFile);
    const record = content.keys.find((k) => k.key_id === keyId && k.revoked_at === null);
    if (!record) return false;
    record.revoked_at = toIsoSeconds(clock.now());
    await writeKeysFile(keysFile, content);
    return true;
  });
}

/** Every key (never the key itself, nor its hash), in creation order. */
export async function listKeys(keysFile: string): Promise<KeyListing[]> {
  const content = await readKeysFile(keysFile);
  return content.keys.map((k) => ({
    key_id: k.key_id,
    workspace: k.workspace,
    plan: content.workspaces[k.workspace]?.plan ?? "",
    created_at: k.created_at,
    revoked_at: k.revoked_at,
  }));
}

export interface KeyOwner {
  keyId: string;
  workspace: string;
  plan: string;
}

/**
 * The server's view of the keys file: active keys by hash. Re-read when the file changes
 * (checked every second, and at once when an unknown key arrives, so a key created a moment
 * ago works on its first request) and on reload().
 */
export class KeyRing {
  private byHash = new Map<string, KeyOwner>();
  private signature = "";
  private refreshing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly path: string | undefined,
    private readonly logger: Logger,
  ) {}

  /** Loads the file; throws when it exists and is invalid (start-up refuses a broken keys file). */
  async load(): Promise<void> {
    if (!this.path) return;
    const signature = await this.fileSignature();
    const content = await readKeysFile(this.path);
    const byHash = new Map<string, KeyOwner>();
    for (const k of content.keys) {
      if (k.revoked_at !== null) continue;
      const plan = content.workspaces[k.workspace]?.plan;
      if (!plan) {
        this.logger.warn(
          { key_id: k.key_id, workspace: k.workspace },
          "key's workspace has no plan; key ignored",
        );
        continue;
      }
      byHash.set(k.sha256, { keyId: k.key_id, workspace: k.workspace, plan });
    }
    this.byHash = byHash;
    this.signature = signature;
  }

  get size(): number {
    return this.byHash.size;
  }

  private async fileSignature(): Promise<string> {
    if (!this.path) return "";
    try {
      const s = await stat(this.path);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return "absent";
    }
  }

  /** Re-reads the file if it changed; keeps the previous keys when the new file is invalid. */
  refreshIfChanged(): Promise<void> {
    if (!this.path) return Promise.resolve();
    this.refreshing ??= (async () => {
      try {
        if ((await this.fileSignature()) !== this.signature) {
          await this.load();
          this.logger.info({ keys: this.byHash.size }, "keys file reloaded");
        }
      } catch (error) {
        this.logger.error(
          { err: (error as Error).message },
          "keys file reload failed; keeping the previous keys",
        );
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  async lookup(key: string): Promise<KeyOwner | null> {
    if (!isWellFormedKey(key)) return null;
    const hash = hashKey(key);
    const owner = this.byHash.get(hash);
    if (owner) return owner;
    await this.refreshIfChanged();
    return this.byHash.get(hash) ?? null;
  }

  watch(intervalMs = 1000): void {
    if (!this.path || this.timer) return;
    this.timer = setInterval(() => void this.refreshIfChanged(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
