/**
 * Per-release memo of prepared GET answers, keyed by the answer's ETag (a hash of the route
 * and the validated, normalized query with defaults applied), so `?limit=100`, `?&&limit=100&`
 * and no query share one entry. A release is immutable, so an entry never goes stale; it dies
 * with its ServedRelease on a switch. Bounded by entry count and by bytes (keys and built
 * bodies), evicting the least recently used entries first, so arbitrary query strings cannot
 * grow it without limit.
 */
export interface PreparedAnswer {
  etag: string;
  build: () => Buffer;
  body: Buffer | null;
}

export class ResponseCache {
  private readonly entries = new Map<string, PreparedAnswer>();
  private readonly keyOf = new WeakMap<PreparedAnswer, string>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  get(key: string): PreparedAnswer | undefined {
    const answer = this.entries.get(key);
    if (answer) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, answer);
    }
    return answer;
  }

  set(key: string, answer: PreparedAnswer): void {
    if (this.entries.has(key)) return;
    this.entries.set(key, answer);
    this.keyOf.set(answer, key);
    this.bytes += key.length + (answer.body?.length ?? 0);
    this.evict();
  }

  /** The body of a cached answer, built on first use. */
  body(answer: PreparedAnswer): Buffer {
    if (answer.body) return answer.body;
    const body = answer.build();
    answer.body = body;
    const key = this.keyOf.get(answer);
    // an answer evicted since it was set is still answered, but no longer held
    if (key !== undefined && this.entries.get(key) === answer) {
      this.bytes += body.length;
      this.evict();
    }
    return body;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held: keys and built bodies. */
  get byteSize(): number {
    return this.bytes;
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      const entry = this.entries.get(oldest.value);
      this.entries.delete(oldest.value);
      this.bytes -= oldest.value.length + (entry?.body?.length ?? 0);
    }
  }
}
