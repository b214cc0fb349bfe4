/**
 * Every recorded capture is stored as its monitored content: re-extracting it changes nothing,
 * so the parser golden tests (which read the capture file) see exactly what the build's
 * parsers see, and the file name is the monitored hash.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  captureDir,
  extractMonitored,
  loadSourceDefinitions,
  readCaptureMeta,
} from "../../src/collect/index.js";
import { SOURCES_DIR } from "../helpers/captures.js";

const { definitions, errors } = await loadSourceDefinitions(SOURCES_DIR);

describe("recorded captures", () => {
  it("every source definition is valid", () => {
    expect(errors).toEqual([]);
    expect(definitions.length).toBeGreaterThanOrEqual(12);
  });

  for (const def of definitions.filter((d) => d.offline_capture)) {
    it(`${def.provider_id}/${def.name} is stored as its monitored content, named by its hash, with provenance`, async () => {
      const meta = await readCaptureMeta(SOURCES_DIR, def);
      expect(meta).not.toBeNull();
      if (!meta) return;
      expect(meta.url).toBe(def.url);
      expect(meta.note ?? "").not.toBe("");
      const raw = await readFile(join(captureDir(SOURCES_DIR, def), meta.file), "utf8");
      const monitored = extractMonitored(def, raw);
      expect(monitored.content).toBe(raw);
      expect(monitored.sha256).toBe(meta.sha256);
      expect(meta.file.startsWith(meta.sha256)).toBe(true);
    });
  }
});
