/** The per-release answer memo stays within its entry and byte bounds, oldest out first. */
import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../src/serve/response-cache.js";

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
