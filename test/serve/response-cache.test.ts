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
