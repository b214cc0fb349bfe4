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
  /** Request text (route, id, raw query) -> the ETag its validation gave; bounded, oldest out. */
  private readonly requests = new Map<string, string>();
  private readonly keyOf = new WeakMap<PreparedAnswer, string>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly maxRequests = 1_000,
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

  /**
   * The answer a request with exactly this text was validated to before, if it is still held:
   * a repeated request skips query validation and the ETag hash. Only the ETag is remembered
   * per request text, never a second reference to an answer, so the entry and byte bounds of
   * the answers hold whatever query strings arrive; the request texts have their own bound.
   */
  getByRequest(request: string): PreparedAnswer | undefined {
    const etag = this.requests.get(request);
    return etag === undefined ? undefined : this.get(etag);
  }

  /** Remembers which ETag a request text was validated to (texts over 1 KiB are not kept). */
  rememberRequest(request: string, etag: string): void {
    if (request.length > 1024 || this.requests.has(request)) return;
    this.requests.set(request, etag);
    if (this.requests.size > this.maxRequests) {
      const oldest = this.requests.keys().next();
      if (!oldest.done) this.requests.delete(oldest.value);
    }
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

/** What the pipeline logs at debug level each time an answer is sent (memoized or not). */
export interface AnswerNote {
  message: string;
  fields: Record<string, unknown>;
}

/** A computed POST answer: its ETag, its body, and what to log each time it is answered. */
export interface ComputedAnswer {
  etag: string;
  body: Buffer;
  note: AnswerNote | null;
}

/**
 * Per-release memo of POST answers keyed by route and request body text: an identical
 * request on the same (immutable) release gets the stored answer without parsing, validating
 * or computing again. Failures (invalid bodies) are never stored. Bounded like ResponseCache,
 * least recently used first out.
 */
export class PostAnswerCache {
  private readonly entries = new Map<string, ComputedAnswer>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 1_000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  answer(key: string, compute: () => ComputedAnswer): ComputedAnswer {
    const held = this.entries.get(key);
    if (held) {
      this.entries.delete(key);
      this.entries.set(key, held);
      return held;
    }
    const computed = compute();
    this.entries.set(key, computed);
    this.bytes += key.length + computed.body.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.bytes -= oldest.value.length + (this.entries.get(oldest.value)?.body.length ?? 0);
      this.entries.delete(oldest.value);
    }
    return computed;
  }

  get size(): number {
    return this.entries.size;
  }
}
