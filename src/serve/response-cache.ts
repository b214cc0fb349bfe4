/**
 * Per-release memo of prepared GET answers, keyed by route and raw query string: the
 * validated query's ETag and, once built, the body. A release is immutable, so an entry
 * never goes stale; it dies with its ServedRelease on a switch. Bounded by entry count and
 * body bytes, evicting the oldest entries first, so arbitrary query strings cannot grow it
 * without limit.
 */
export interface PreparedAnswer {
  etag: string;
  build: () => Buffer;
  body: Buffer | null;
}

export class ResponseCache {
  private readonly entries = new Map<string, PreparedAnswer>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  get(key: string): PreparedAnswer | undefined {
    return this.entries.get(key);
  }

  set(key: string, answer: PreparedAnswer): void {
    if (this.entries.has(key)) return;
    this.entries.set(key, answer);
    this.evict();
  }

  /** The body of a cached answer, built on first use. */
  body(answer: PreparedAnswer): Buffer {
    if (answer.body) return answer.body;
    const body = answer.build();
    answer.body = body;
    this.bytes += body.length;
    this.evict();
    return body;
  }

  get size(): number {
    return this.entries.size;
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      const entry = this.entries.get(oldest.value);
      this.entries.delete(oldest.value);
      if (entry?.body) this.bytes -= entry.body.length;
    }
  }
}
