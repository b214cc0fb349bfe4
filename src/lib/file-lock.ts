/**
 * Exclusive lock files for read-modify-write of shared files (keys.json) and for publishing
 * into a snapshots directory. The lock is `<path>` created with `open(..., "wx")` (atomic on
 * local file systems) holding `{"pid","hostname","acquired_at"}` of its owner.
 *
 * A lock is stale when its owner is gone: on this host, when the pid is no longer alive (a
 * kill -9 leaves the file behind); from another host, when it is older than `staleMs`; an
 * owner record that cannot be read (a crash between create and write) is stale after 5 s.
 * Breaking a stale lock is itself done under `<path>.break` (also `wx`), re-checking the
 * staleness there, so two processes that both see a stale lock never remove a fresh one.
 * A lock file whose owner record cannot be written (a full disk) is removed at once, and the
 * lock is released on every path out of `withLock`.
 */
import { open, readFile, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { CatalogError, type CatalogErrorCode } from "./errors.js";

export interface LockOwner {
  pid: number;
  hostname: string;
  acquired_at: string;
}

export interface LockOptions {
  /** How long to wait for a held lock before giving up (0: fail at once). */
  waitMs: number;
  /** What the lock protects, for the error message ("keys file /x/keys.json"). */
  what: string;
  /** Error code thrown when the lock stays held (default `locked`). */
  busyCode?: CatalogErrorCode;
  /** A lock of another host older than this is stale (default 10 minutes). */
  staleMs?: number;
}

const UNREADABLE_STALE_MS = 5_000;

/** Whether a process with this pid runs on this host (EPERM: it does, as another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function readLockOwner(path: string): Promise<LockOwner | null> {
  try {
    const owner = JSON.parse(await readFile(path, "utf8")) as Partial<LockOwner>;
    if (typeof owner.pid === "number" && typeof owner.hostname === "string")
      return { pid: owner.pid, hostname: owner.hostname, acquired_at: String(owner.acquired_at ?? "") };
    return null;
  } catch {
    return null;
  }
}

/** Whether the lock file at `path` is held by nobody alive. False when there is no lock file. */
async function isStale(path: string, staleMs: number): Promise<boolean> {
  let modified: number;
  try {
    modified = (await stat(path)).mtimeMs;
  } catch {
    return false;
  }
  const owner = await readLockOwner(path);
  const age = Date.now() - modified;
  if (!owner) return age > UNREADABLE_STALE_MS;
  if (owner.hostname === hostname()) return !isProcessAlive(owner.pid);
  return age > staleMs;
}

async function tryCreate(path: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new CatalogError(
      "io_failed",
      `cannot create lock file ${path}: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
  try {
    const owner: LockOwner = {
      pid: process.pid,
      hostname: hostname(),
      acquired_at: new Date().toISOString(),
    };
    await handle.writeFile(`${JSON.stringify(owner)}\n`);
    await handle.close();
  } catch (error) {
    // A full disk (or any failed write) must not leave an empty lock that the next command
    // waits on: the file created above is ours, and is removed before the error goes up.
    await handle.close().catch(() => {});
    await rm(path, { force: true });
    throw new CatalogError(
      "io_failed",
      `cannot write lock file ${path}: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
  return true;
}

/** Removes `path` if it is stale, under the break lock; true when it removed it. */
async function breakIfStale(path: string, staleMs: number): Promise<boolean> {
  if (!(await isStale(path, staleMs))) return false;
  const breaker = `${path}.break`;
  if (!(await tryCreate(breaker))) {
    if (await isStale(breaker, UNREADABLE_STALE_MS)) await rm(breaker, { force: true });
    return false;
  }
  try {
    if (!(await isStale(path, staleMs))) return false;
    await rm(path, { force: true });
    return true;
  } finally {
    await rm(breaker, { force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the lock; resolves to its release function. Throws `busyCode` when it stays held. */
export async function acquireLock(path: string, options: LockOptions): Promise<() => Promise<void>> {
  const staleMs = options.staleMs ?? 600_000;
  const deadline = Date.now() + options.waitMs;
  let pause = 5;
  for (;;) {
    if ((await tryCreate(path)) || ((await breakIfStale(path, staleMs)) && (await tryCreate(path)))) {
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(path, { force: true });
      };
    }
    if (Date.now() >= deadline) {
      const owner = await readLockOwner(path);
      throw new CatalogError(
        options.busyCode ?? "locked",
        `${options.what} is locked by another process${owner ? ` (pid ${owner.pid} on ${owner.hostname} since ${owner.acquired_at})` : ""}; lock file ${path}`,
        { lock: path, owner },
      );
    }
    await sleep(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 100);
  }
}

/** Runs `fn` holding the lock at `path`. */
export async function withLock<T>(path: string, options: LockOptions, fn: () => Promise<T>): Promise<T> {
  const release = await acquireLock(path, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}
