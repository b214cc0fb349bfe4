/**
 * A model name that points to its only snapshot ends with that snapshot (src/release/alias-lifecycle.ts),
 * on the recorded captures: the committed release is their offline build, so its facts and catalog
 * show what the merge did with OpenAI's model pages and deprecations page.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { withAliasStatements } from "../../src/release/alias-lifecycle.js";
import type { SourceFacts } from "../../src/release/facts.js";
import { isOfficial } from "../../src/release/merge-candidates.js";
import type { Deployment } from "../../src/schema/index.js";
import { type CommittedRelease, committedRelease } from "../helpers/committed-release.js";

let release: CommittedRelease;
let sources: SourceFacts[];
let byModel: Map<string, Deployment[]>;
/** provider|name -> its only snapshot, as official model facts state it */
let onlySnapshot: Map<string, string>;
/** provider|provider_model_id that an official source itself dates */
let dated: Set<string>;

beforeAll(async () => {
  release = await committedRelease();
  sources = release.facts.sources;
  byModel = new Map();
  for (const d of release.catalog.deployments) {
    const k = `${d.provider_id}|${d.provider_model_id}`;
    byModel.set(k, [...(byModel.get(k) ?? []), d]);
  }
  onlySnapshot = new Map();
  dated = new Set();
  for (const s of sources)
    if (isOfficial(s)) {
      for (const f of s.output.model_facts ?? [])
        if (f.only_snapshot) onlySnapshot.set(`${f.provider_id}|${f.provider_model_id}`, f.only_snapshot);
      for (const a of s.output.lifecycle)
        if (a.scope === "deployment" && a.target && (a.end_of_life || a.deprecation || a.status))
          dated.add(`${a.provider_id}|${a.target.provider_model_id}`);
    }
});

describe("a name ends with its only snapshot", () => {
  it("every placed name whose only snapshot an official source dates, and that no official source dates itself, ends when it does", () => {
    let checked = 0;
    for (const [name, snapshot] of onlySnapshot) {
      const provider = name.split("|")[0];
      const snapshotEnd = (byModel.get(`${provider}|${snapshot}`) ?? [])
        .map((d) => d.lifecycle.end_of_life)
        .find(
          (e) =>
            e.state === "scheduled" && e.evidence.some((x) => x.verification_status === "official_declared"),
        );
      if (!snapshotEnd || dated.has(name)) continue;
      for (const d of byModel.get(name) ?? []) {
        checked++;
        expect(d.lifecycle.end_of_life.date, d.id).toBe(snapshotEnd.date);
        expect(
          d.lifecycle.end_of_life.evidence.map((e) => e.verification_status),
          d.id,
        ).toContain("official_inferred");
      }
    }
    // o3-pro, o3, gpt-5 and its mini / nano / pro, both search previews: 23 deployments
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it("o3-pro ends with o3-pro-2025-06-10 (Dec 11, 2026, replaced by gpt-5.5-pro); the search preview names are retired", () => {
    const o3pro = byModel.get("openai|o3-pro") ?? [];
    expect(o3pro.length).toBeGreaterThan(0);
    for (const d of o3pro) {
      expect(d.status).toBe("deprecated");
      expect(d.lifecycle.end_of_life.date).toBe("2026-12-11");
      expect(d.lifecycle.replacement_ids.join(" ")).toMatch(/gpt-5\.5-pro/);
    }
    for (const name of ["gpt-4o-search-preview", "gpt-4o-mini-search-preview"])
      for (const d of byModel.get(`openai|${name}`) ?? []) expect(d.status, d.id).toBe("retired");
  });

  it("leaves a name with several snapshots, a name dated on its own, and every non-official source alone", () => {
    expect(onlySnapshot.has("openai|gpt-4o")).toBe(false);
    const after = withAliasStatements(sources, isOfficial);
    sources.forEach((source, i) => {
      const kept = after[i] as SourceFacts;
      if (!isOfficial(source)) expect(kept).toBe(source);
      const added = kept.output.lifecycle.slice(source.output.lifecycle.length);
      expect(kept.output.lifecycle.slice(0, source.output.lifecycle.length)).toEqual(source.output.lifecycle);
      for (const a of added) {
        const name = `${a.provider_id}|${a.target?.provider_model_id}`;
        expect(onlySnapshot.has(name), name).toBe(true);
        expect(dated.has(name), name).toBe(false);
        expect(a.evidence.verification_status).toBe("official_inferred");
      }
    });
    // gpt-4o-audio-preview is dated on its own (retired 2026-05-07): not moved by its snapshot
    for (const d of byModel.get("openai|gpt-4o-audio-preview") ?? [])
      expect(d.lifecycle.end_of_life.date).toBe("2026-05-07");
  });
});
