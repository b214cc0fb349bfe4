/** The per-release answer memo stays within its entry and byte bounds, oldest out first. */
import { describe, expect, it, test } from "vitest";
import { PostAnswerCache, ResponseCache } from "../../src/serve/response-cache.js";

const answer = (size: number) => ({ etag: `"${size}"`, build: () => Buffer.alloc(size), body: null });

describe("ResponseCache", () => {
  it("evicts the oldest entries beyond the entry bound", () => {
    const cache = new ResponseCache(3, 1_000_000);
    for (const key of ["a", "b", "c", "d"]) cache.set(key, answer(1));
    expect(cache.size).toBe(3);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("d")?.etag).toBe('"1"');
  });

  it("builds a body once and evicts by body bytes", () => {
    const cache = new ResponseCache(100, 250);
    let builds = 0;
    const build = () => {
      builds++;
      return Buffer.alloc(100);
    };
    const first = { etag: '"x"', build, body: null };
    cache.set("x", first);
    expect(cache.body(first)).toBe(cache.body(first));
    expect(builds).toBe(1);
    const second = answer(100);
    cache.set("y", second);
    cache.body(second);
    const third = answer(100);
    cache.set("z", third);
    cache.body(third); // 300 bytes > 250: the oldest ("x") goes
    expect(cache.get("x")).toBeUndefined();
    expect(cache.get("y")).toBeDefined();
    expect(cache.get("z")).toBeDefined();
  });
});

describe("PostAnswerCache", () => {
  const answer = (text: string) => ({ etag: `"${text}"`, body: Buffer.from(text), note: null });

  test("an identical request is computed once and answered with the same ETag and bytes", () => {
    const cache = new PostAnswerCache();
    let computed = 0;
    const compute = () => {
      computed++;
      return answer("one");
    };
    const first = cache.answer("compare\n{}", compute);
    const second = cache.answer("compare\n{}", compute);
    expect(computed).toBe(1);
    expect(second).toBe(first);
    cache.answer("compare\n{ }", () => answer("two"));
    expect(cache.size).toBe(2);
  });

  test("a failed computation stores nothing, and the least recently used answers leave first", () => {
    const cache = new PostAnswerCache(2);
    expect(() =>
      cache.answer("bad", () => {
        throw new Error("invalid body");
      }),
    ).toThrow("invalid body");
    expect(cache.size).toBe(0);
    cache.answer("a", () => answer("a"));
    cache.answer("b", () => answer("b"));
    cache.answer("a", () => answer("a again"));
    cache.answer("c", () => answer("c"));
    expect(cache.size).toBe(2);
    expect(cache.answer("a", () => answer("a again")).body.toString()).toBe("a");
    expect(cache.answer("b", () => answer("b again")).body.toString()).toBe("b again");
  });
});

describe("ResponseCache request texts", () => {
  test("a request text maps to the answer its validation gave while that answer is held, within its own bound", () => {
    const cache = new ResponseCache(1, 1_000_000, 2);
    const first = answer(1);
    cache.set(first.etag, first);
    cache.rememberRequest("deployments\n\nlimit=1", first.etag);
    expect(cache.getByRequest("deployments\n\nlimit=1")).toBe(first);
    expect(cache.getByRequest("deployments\n\nlimit=1&")).toBeUndefined();
    // the answer leaves the cache: the request text no longer answers
    const second = answer(2);
    cache.set(second.etag, second);
    expect(cache.getByRequest("deployments\n\nlimit=1")).toBeUndefined();
    // request texts are bounded on their own and never add answers
    for (const text of ["a", "b", "c"]) cache.rememberRequest(text, second.etag);
    expect(cache.getByRequest("a")).toBeUndefined();
    expect(cache.getByRequest("c")).toBe(second);
    expect(cache.size).toBe(1);
    cache.rememberRequest("x".repeat(2_000), second.etag);
    expect(cache.getByRequest("x".repeat(2_000))).toBeUndefined();
  });
});
