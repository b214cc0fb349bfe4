import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  captureDir,
  extractMonitored,
  type NewCapture,
  readCapture,
  readCaptureMeta,
  writeCapture,
} from "../../src/collect/index.js";
import { definition, type TempSources, tempSourcesDir } from "./fixtures.js";

let temp: TempSources;
beforeEach(async () => {
  temp = await tempSourcesDir();
});
afterEach(async () => {
  await temp.cleanup();
});

const source = definition({ name: "pricing", monitor: { selector: "table" } });

function capture(price: string, fetchedAt = "2026-11-22T00:00:00Z"): NewCapture {
  const { content, sha256 } = extractMonitored(
    source,
    `<html><body><table><tr><td>gpt</td><td>${price}</td></tr></table></body></html>`,
  );
  return {
    content,
    sha256,
    url: source.url,
    fetchedAt,
    httpStatus: 200,
    contentType: "text/html; charset=utf-8",
    etag: '"e1"',
    lastModified: null,
  };
}

describe("the capture store", () => {
  it("writes the content under its hash and CURRENT.json naming it, leaving no temporary files", async () => {
    const first = capture("$1");
    const { written, meta } = await writeCapture(temp.dir, source, first);
    expect(written).toBe(true);
    const dir = captureDir(temp.dir, source);
    expect((await readdir(dir)).sort()).toEqual(["CURRENT.json", `${first.sha256}.html`].sort());
    expect(await readFile(join(dir, `${first.sha256}.html`), "utf8")).toBe(first.content);
    expect(await readCaptureMeta(temp.dir, source)).toEqual(meta);
    expect(meta).toMatchObject({
      file: `${first.sha256}.html`,
      sha256: first.sha256,
      etag: '"e1"',
      http_status: 200,
    });
    const stored = await readCapture(temp.dir, source);
    expect(stored?.content).toBe(first.content);
  });

  it("writes nothing when the monitored content did not change", async () => {
    await writeCapture(temp.dir, source, capture("$1"));
    const currentPath = join(captureDir(temp.dir, source), "CURRENT.json");
    const before = await stat(currentPath);
    const again = await writeCapture(temp.dir, source, capture("$1", "2026-11-23T00:00:00Z"));
    expect(again.written).toBe(false);
    expect(again.meta.fetched_at).toBe("2026-11-22T00:00:00Z");
    expect((await stat(currentPath)).mtimeMs).toBe(before.mtimeMs);
  });

  it("replaces a changed capture and removes the superseded file", async () => {
    const first = capture("$1");
    const second = capture("$2");
    await writeCapture(temp.dir, source, first);
    expect((await writeCapture(temp.dir, source, second)).written).toBe(true);
    expect((await readdir(captureDir(temp.dir, source))).sort()).toEqual(
      ["CURRENT.json", `${second.sha256}.html`].sort(),
    );
    expect((await readCapture(temp.dir, source))?.sha256).toBe(second.sha256);
  });

  it("reports no capture as null, and a damaged or missing capture file as an error", async () => {
    expect(await readCapture(temp.dir, source)).toBeNull();
    const first = capture("$1");
    await writeCapture(temp.dir, source, first);
    const file = join(captureDir(temp.dir, source), `${first.sha256}.html`);
    await writeFile(file, first.content.replace("$1", "$9"));
    await expect(readCapture(temp.dir, source)).rejects.toThrow(/is damaged: its SHA-256 is/);
    // a damaged current capture is replaced by the next write even with the same content
    expect((await writeCapture(temp.dir, source, first)).written).toBe(true);
    await expect(readCapture(temp.dir, source)).resolves.not.toBeNull();
    const { rm } = await import("node:fs/promises");
    await rm(file);
    await expect(readCapture(temp.dir, source)).rejects.toThrow(/cannot be read/);
    await writeFile(join(captureDir(temp.dir, source), "CURRENT.json"), "{ not json");
    await expect(readCapture(temp.dir, source)).rejects.toThrow(/not a valid capture record/);
  });

  it("refuses content that does not match the hash it is filed under", async () => {
    await expect(writeCapture(temp.dir, source, { ...capture("$1"), content: "other" })).rejects.toThrow(
      /does not match its hash/,
    );
  });
});
