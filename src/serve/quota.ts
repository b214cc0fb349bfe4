/**
 * Monthly request quota (docs/decisions.md "Authentication, plans and quota"): one counter per
 * subject (a workspace, or `anon:<address>` for keyless callers) per calendar month in UTC.
 *
 * Two stores behind one interface:
 * - FileQuotaStore (default): counters in memory, written to one JSON file through a
 *   temporary file and a rename, debounced (at most one write per 250 ms) and flushed on
 *   close, so counts survive a restart. One process only. Anonymous counters (one per client
 *   address) are capped: beyond `maxAnonymous` (default 100,000) addresses in a month, the
 *   least recently seen address's counter is dropped (it starts again from zero), so a flood
 *   of addresses cannot grow memory and the file without bound, while every address active
 *   within the last 100,000 distinct addresses keeps an exact count. Workspace counters are
 *   never dropped.
 * - RedisQuotaStore: `INCR quota:<subject>:<YYYY-MM>` plus its expiry in one Lua script
 *   (atomic), so several server processes share the counters. Every command has a deadline
 *   (REDIS_COMMAND_TIMEOUT_MS): a Redis that stops answering (frozen, overloaded, a network
 *   that drops packets) fails the request with 503 instead of holding it. After a missed
 *   deadline the store is "stalled": requests fail at once, without queueing more commands,
 *   and /readyz says not ready, until a heartbeat PING is answered again
 *   (docs/operations-reliability.md).
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Redis } from "ioredis";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { CatalogError } from "../lib/errors.js";
import type { Logger } from "../lib/logger.js";

export interface QuotaPeriod {
  /** `YYYY-MM` of the current UTC month. */
  period: string;
  /** Start of the next UTC month. */
  resetAt: Date;
  /** ISO 8601 of resetAt, second precision: `2026-12-01T00:00:00Z`. */
  resetIso: string;
  /** Whole seconds until resetAt, at least 1 (for Retry-After). */
  secondsToReset: number;
}

export function quotaPeriod(now: Date): QuotaPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const resetAt = new Date(Date.UTC(year, month + 1, 1));
  return {
    period: `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}`,
    resetAt,
    resetIso: `${resetAt.toISOString().slice(0, 19)}Z`,
    secondsToReset: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  };
}

/** The outcome of counting one request against a quota. */
export interface Consumed {
  /** The subject's count in the period after this request (unchanged when refused). */
  count: number;
  /** False when the quota was already spent: the request is refused (429) and not counted. */
  allowed: boolean;
}

export interface QuotaStore {
  readonly kind: "file" | "redis" | "none";
  /**
   * Counts one request unless the subject's count already reached `limit`; a refused request
   * (429) is not counted, so the count never passes the limit.
   */
  consume(subject: string, period: QuotaPeriod, limit: number): Promise<Consumed>;
  /** The subject's count in the period, without counting. */
  peek(subject: string, period: QuotaPeriod): Promise<number>;
  /** Why the store cannot count requests now (the server is then not ready), or null when it can. */
  unavailable(): string | null;
  /** Persists what is pending and releases connections. */
  close(): Promise<void>;
}

const FileContent = {
  parse(raw: string): Record<string, number> {
    const value = JSON.parse(raw) as { version?: unknown; counters?: unknown };
    if (value.version !== 1 || typeof value.counters !== "object" || value.counters === null)
      throw new Error("not a quota file (version 1)");
    const counters: Record<string, number> = {};
    for (const [key, count] of Object.entries(value.counters as Record<string, unknown>)) {
      if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0 || !key.includes("|"))
        throw new Error(`bad counter ${key}`);
      counters[key] = count;
    }
    return counters;
  },
};

/** Subjects of keyless callers: `anon:<client address>`. */
export const ANONYMOUS_PREFIX = "anon:";
/** Anonymous counters the embedded store keeps before dropping the least recently seen. */
export const DEFAULT_MAX_ANONYMOUS_COUNTERS = 100_000;

export class FileQuotaStore implements QuotaStore {
  readonly kind = "file" as const;
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private latestPeriod = "";

  private constructor(
    private readonly path: string,
    private readonly counters: Map<string, number>,
    private readonly logger: Logger,
    private readonly debounceMs: number,
    private readonly maxAnonymous: number,
  ) {
    for (const key of counters.keys()) if (key.startsWith(ANONYMOUS_PREFIX)) this.anonymous++;
  }

  /** Anonymous counters held (all periods). */
  private anonymous = 0;

  static async open(
    path: string,
    logger: Logger,
    debounceMs = 250,
    maxAnonymous = DEFAULT_MAX_ANONYMOUS_COUNTERS,
  ): Promise<FileQuotaStore> {
    let counters: Record<string, number> = {};
    try {
      counters = FileContent.parse(await readFile(path, "utf8"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        throw new CatalogError(
          "io_failed",
          `quota file ${path} is unreadable or invalid`,
          {},
          { cause: error },
        );
    }
    await mkdir(dirname(path), { recursive: true });
    return new FileQuotaStore(path, new Map(Object.entries(counters)), logger, debounceMs, maxAnonymous);
  }

  /** Number of anonymous (per-address) counters held. */
  get anonymousCounters(): number {
    return this.anonymous;
  }

  async consume(subject: string, period: QuotaPeriod, limit: number): Promise<Consumed> {
    const key = `${subject}|${period.period}`;
    const current = this.counters.get(key);
    const allowed = (current ?? 0) < limit;
    const count = allowed ? (current ?? 0) + 1 : (current ?? 0);
    if (key.startsWith(ANONYMOUS_PREFIX)) {
      // a refused address is active too: Map order (most recently seen last) is the eviction order
      if (current === undefined) this.anonymous++;
      else this.counters.delete(key);
      this.counters.set(key, count);
      this.evictAnonymous();
    } else if (allowed) this.counters.set(key, count);
    if (!allowed) return { count, allowed };
    if (period.period > this.latestPeriod) this.latestPeriod = period.period;
    this.dirty = true;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, this.debounceMs);
      this.timer.unref();
    }
    return { count, allowed };
  }

  private evictAnonymous(): void {
    if (this.anonymous <= this.maxAnonymous) return;
    for (const key of this.counters.keys()) {
      if (this.anonymous <= this.maxAnonymous) break;
      if (!key.startsWith(ANONYMOUS_PREFIX)) continue;
      this.counters.delete(key);
      this.anonymous--;
    }
  }

  async peek(subject: string, period: QuotaPeriod): Promise<number> {
    return this.counters.get(`${subject}|${period.period}`) ?? 0;
  }

  unavailable(): null {
    return null;
  }

  /** Writes the counters of the latest period seen (older months are dropped). */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      const counters: Record<string, number> = {};
      for (const [key, count] of [...this.counters].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (key.slice(key.lastIndexOf("|") + 1) >= this.latestPeriod) counters[key] = count;
        else {
          this.counters.delete(key);
          if (key.startsWith(ANONYMOUS_PREFIX)) this.anonymous--;
        }
      }
      try {
        await writeFileAtomic(this.path, `${JSON.stringify({ version: 1, counters })}\n`);
      } catch (error) {
        this.dirty = true;
        this.logger.error({ err: (error as Error).message, file: this.path }, "quota file write failed");
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}

/**
 * Unless the count already reached the limit (ARGV[2]): INCR and, on the first count of a
 * period (or a key without expiry), set its expiry. Returns {count, 1 counted | 0 refused}.
 */
const CONSUME_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current >= tonumber(ARGV[2]) then
  return {current, 0}
end
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return {count, 1}`;

/** Counters outlive their month by a day, then Redis drops them. */
const EXPIRY_GRACE_SECONDS = 86_400;

/** How long a Redis command may take before the request it serves is answered 503. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** How often the store pings Redis to notice a stall (and its end) without waiting for traffic. */
export const REDIS_HEARTBEAT_MS = 500;

export interface RedisStoreOptions {
  commandTimeoutMs?: number;
  heartbeatMs?: number;
}

/**
 * Whether a Redis persists its data (`CONFIG GET appendonly` / `save`): false when both AOF and
 * RDB snapshots are off (a restart then forgets every counter), null when CONFIG is not
 * allowed (managed Redis services often rename it) and so unknown.
 */
export function persistsData(config: { appendonly: string | null; save: string | null }): boolean | null {
  if (config.appendonly === null || config.save === null) return null;
  return config.appendonly.trim().toLowerCase() === "yes" || config.save.trim() !== "";
}

export class RedisQuotaStore implements QuotaStore {
  readonly kind = "redis" as const;
  /** Set when a command missed its deadline; cleared by the next answered heartbeat. */
  private stalled: string | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private pinging = false;

  private constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  /**
   * Connects and pings; throws a clear error when Redis cannot be reached. Warns (once) when
   * that Redis persists nothing: a restart would give every workspace a fresh quota.
   */
  static async connect(
    url: string,
    logger: Logger,
    options: RedisStoreOptions = {},
  ): Promise<RedisQuotaStore> {
    const redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      connectTimeout: 3000,
      commandTimeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    redis.on("error", (error: Error) => logger.warn({ err: error.message }, "redis quota store error"));
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      redis.disconnect();
      throw new CatalogError(
        "io_failed",
        `cannot reach Redis for the quota store: ${(error as Error).message}`,
        {},
        { cause: error },
      );
    }
    const store = new RedisQuotaStore(redis, logger);
    await store.checkPersistence(url);
    store.startHeartbeat(options.heartbeatMs ?? REDIS_HEARTBEAT_MS);
    return store;
  }

  private async checkPersistence(url: string): Promise<void> {
    const setting = async (name: string): Promise<string | null> => {
      try {
        const reply = (await this.redis.config("GET", name)) as string[];
        return reply[1] ?? null;
      } catch {
        return null;
      }
    };
    const persists = persistsData({ appendonly: await setting("appendonly"), save: await setting("save") });
    const where = new URL(url);
    const redisAt = `${where.hostname}:${where.port || "6379"}`;
    if (persists === false)
      this.logger.warn(
        { redis: redisAt },
        "the Redis quota store persists nothing (appendonly no, save empty): a Redis restart forgets this month's counters and every caller's quota starts again",
      );
    else if (persists === null)
      this.logger.info({ redis: redisAt }, "cannot read the Redis persistence settings (CONFIG GET refused)");
  }

  private startHeartbeat(everyMs: number): void {
    this.heartbeat = setInterval(() => {
      if (this.pinging) return;
      this.pinging = true;
      this.redis.ping().then(
        () => {
          this.pinging = false;
          if (this.stalled !== null) this.logger.info({}, "the Redis quota store answers again");
          this.stalled = null;
        },
        (error: Error) => {
          this.pinging = false;
          this.markStalled(error);
        },
      );
    }, everyMs);
    this.heartbeat.unref();
  }

  private markStalled(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (this.stalled === null) this.logger.error({ err: message }, "the Redis quota store is not answering");
    this.stalled = message;
  }

  unavailable(): string | null {
    if (this.stalled !== null) return `the Redis quota store is not answering (${this.stalled})`;
    if (this.redis.status !== "ready") return `the Redis quota store is ${this.redis.status}`;
    return null;
  }

  /** A command with the store's deadline; refused at once while Redis is known to be stalled. */
  private async command<T>(run: () => Promise<T>): Promise<T> {
    if (this.stalled !== null) throw new Error(`Redis is not answering (${this.stalled})`);
    try {
      return await run();
    } catch (error) {
      if (error instanceof Error && /timed? ?out/i.test(error.message)) this.markStalled(error);
      throw error;
    }
  }

  static keyFor(subject: string, period: QuotaPeriod): string {
    return `quota:${subject}:${period.period}`;
  }

  async consume(subject: string, period: QuotaPeriod, limit: number): Promise<Consumed> {
    const ttl = period.secondsToReset + EXPIRY_GRACE_SECONDS;
    const [count, counted] = (await this.command(() =>
      this.redis.eval(CONSUME_SCRIPT, 1, RedisQuotaStore.keyFor(subject, period), ttl, limit),
    )) as [number, number];
    return { count: Number(count), allowed: Number(counted) === 1 };
  }

  async peek(subject: string, period: QuotaPeriod): Promise<number> {
    const value = await this.command(() => this.redis.get(RedisQuotaStore.keyFor(subject, period)));
    return value === null ? 0 : Number(value);
  }

  async close(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.stalled !== null) {
      // a frozen Redis would never answer QUIT
      this.redis.disconnect();
      return;
    }
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
