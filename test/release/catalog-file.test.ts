/**
 * catalog.json and serve-index.json as the release stage writes them: the catalog file is
 * exactly the canonical JSON of the catalog, every span in the index holds its record's
 * canonical JSON, and the index's columns are the records' own values.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/lib/canonical-json.js";
import { serializeRelease } from "../../src/release/serialize.js";
import type { CatalogContent, Deployment, LifecycleRecord } from "../../src/schema/index.js";
import { ServeIndexFile } from "../../src/schema/index.js";
import {
  byTypeAndId,
  CATALOG_FILE,
  CatalogLayoutRecorder,
  catalogReleaseFiles,
  deploymentLifecyclesEmbedded,
  loadRelease,
  SERVE_INDEX_FILE,
  serializeCatalog,
  serveIndexFor,
  storedLifecycle,
  withDeploymentLifecycles,
} from "../../src/snapshot/index.js";
import { committedReleaseId, REPO_SNAPSHOTS } from "../helpers/committed-release.js";
import { fixtureCatalog } from "../serve/support/fixture.js";

/** The fixture with text outside ASCII (two-, three- and four-byte UTF-8), so byte and character offsets differ. */
function nonAsciiCatalog(): CatalogContent {
  const catalog = fixtureCatalog();
  return {
    ...catalog,
    deployments: catalog.deployments.map((d, i) =>
      i % 2 === 0 ? { ...d, provider_model_id: `${d.provider_model_id}-modèle-日本-😀` } : d,
    ),
    // a top-level order that is not the served one: spans follow records, not positions
    lifecycle: [...catalog.lifecycle].reverse(),
  };
}

/** The committed catalog as loaded: the deployments' own lifecycle records are their lifecycles (stored once). */
async function committedCatalog(): Promise<CatalogContent> {
  return (await loadRelease(REPO_SNAPSHOTS, await committedReleaseId())).catalog;
}

/** The committed catalog with every lifecycle record its own object: stored whole, as before format 2. */
async function separateRecordsCatalog(): Promise<CatalogContent> {
  // a JSON round trip (structuredClone would keep the shared lifecycle objects shared)
  return JSON.parse(JSON.stringify(await committedCatalog())) as CatalogContent;
}

/** What catalog.json holds of a catalog: the deployments' own lifecycle records left out where they are theirs. */
function stored(catalog: CatalogContent): CatalogContent {
  return {
    ...catalog,
    lifecycle: [...storedLifecycle(catalog.lifecycle, deploymentLifecyclesEmbedded(catalog))],
  };
}

type Coded = { values: Array<string | null>; codes: number[] };
/** The value a coded column holds for record i. */
const decoded = (column: Coded, i: number) => column.values[column.codes[i] as number];

const read = (bytes: Buffer, offset: number, length: number) =>
  bytes.subarray(offset, offset + length).toString("utf8");

/** The record at position i of an index list, parsed from its span of the catalog bytes. */
function spanRecord<T>(bytes: Buffer, list: { offset: number[]; length: number[] }, i: number): T {
  return JSON.parse(read(bytes, list.offset[i] as number, list.length[i] as number)) as T;
}

describe("catalog.json written record by record", () => {
  it("is byte for byte the canonical JSON of the catalog as stored (the committed release's, both forms, and one with multi-byte text)", async () => {
    for (const catalog of [
      await committedCatalog(),
      await separateRecordsCatalog(),
      nonAsciiCatalog(),
      fixtureCatalog({ deployments: [] }),
    ]) {
      const embedded = deploymentLifecyclesEmbedded(catalog);
      const { bytes } = serializeCatalog(catalog, embedded);
      expect(bytes.equals(Buffer.from(canonicalJson(stored(catalog)), "utf8"))).toBe(true);
      expect(bytes.equals(catalogReleaseFiles(catalog)[CATALOG_FILE] as Uint8Array)).toBe(true);
    }
  });

  it("stores a deployment's own lifecycle record once, in the deployment, and reads back the same catalog", async () => {
    const catalog = await committedCatalog();
    const count = (c: CatalogContent) => c.lifecycle.filter((r) => r.resource_type === "deployment").length;
    expect(count(catalog)).toBe(catalog.deployments.length);
    expect(deploymentLifecyclesEmbedded(catalog)).toBe(true);
    const onDisk = JSON.parse(serializeCatalog(catalog, true).bytes.toString("utf8")) as CatalogContent;
    expect(count(onDisk)).toBe(0);
    expect(onDisk.lifecycle.length).toBe(catalog.lifecycle.length - catalog.deployments.length);
    expect(onDisk.lifecycle.length).toBeGreaterThan(100);
    expect(withDeploymentLifecycles(onDisk)).toEqual(catalog);
    // a catalog whose records are their own objects (a release before format 2) is stored whole and read alike
    const separate = await separateRecordsCatalog();
    expect(deploymentLifecyclesEmbedded(separate)).toBe(false);
    const whole = JSON.parse(serializeCatalog(separate).bytes.toString("utf8")) as CatalogContent;
    expect(count(whole)).toBe(catalog.deployments.length);
    expect(withDeploymentLifecycles(whole)).toEqual(catalog);
    // one deployment record edited by hand: stored whole, kept as edited
    const edited = structuredClone(catalog);
    const first = edited.lifecycle.find((r) => r.resource_type === "deployment");
    if (!first) throw new Error("a deployment record");
    first.lifecycle = { ...first.lifecycle, replacement_ids: ["edited"] };
    const editedOnDisk = JSON.parse(
      serializeCatalog(edited, deploymentLifecyclesEmbedded(edited)).bytes.toString("utf8"),
    ) as CatalogContent;
    expect(withDeploymentLifecycles(editedOnDisk)).toEqual(edited);
    // a stored record of an id no deployment has does not stand in for a deployment's own
    const [strayFrom] = whole.lifecycle.filter((r) => r.resource_type === "deployment");
    if (!strayFrom) throw new Error("a stored deployment record");
    const stray = { ...strayFrom, resource_id: "dep_nowhere" };
    const strayed = { ...whole, lifecycle: whole.lifecycle.map((r) => (r === strayFrom ? stray : r)) };
    expect(withDeploymentLifecycles(strayed).lifecycle).toEqual(
      [...catalog.lifecycle, stray].sort(byTypeAndId),
    );
  });

  it("gives every deployment and lifecycle record the span of its own canonical JSON, and each member the span of its value", () => {
    const catalog = nonAsciiCatalog();
    const { bytes, layout } = serializeCatalog(catalog);
    expect(layout.bytes).toBe(bytes.byteLength);
    expect(layout.deployments.offset).toHaveLength(catalog.deployments.length);
    catalog.deployments.forEach((d, i) => {
      expect(spanRecord(bytes, layout.deployments, i)).toEqual(d);
      expect(read(bytes, layout.deployments.offset[i] ?? -1, layout.deployments.length[i] ?? -1)).toBe(
        canonicalJson(d),
      );
    });
    catalog.lifecycle.forEach((r, i) => {
      expect(read(bytes, layout.lifecycle.offset[i] ?? -1, layout.lifecycle.length[i] ?? -1)).toBe(
        canonicalJson(r),
      );
    });
    for (const key of ["deployments", "lifecycle", "events", "sources"] as const) {
      const [offset, length] = layout.members[key] ?? [-1, -1];
      expect(JSON.parse(read(bytes, offset, length))).toEqual(catalog[key]);
    }
  });
});

describe("the build's streaming writer", () => {
  it("records the same layout as serializeCatalog while it writes the same bytes in chunks", async () => {
    for (const catalog of [await committedCatalog(), await separateRecordsCatalog(), nonAsciiCatalog()]) {
      const chunks: Uint8Array[] = [];
      const layout = new CatalogLayoutRecorder();
      const embedded = deploymentLifecyclesEmbedded(catalog);
      serializeRelease(
        catalog,
        { format: 1, sources: [] },
        { catalog: (c) => chunks.push(Buffer.from(c)), facts: () => {}, layout, embedded },
      );
      const expected = serializeCatalog(catalog, embedded);
      expect(Buffer.concat(chunks).equals(expected.bytes)).toBe(true);
      expect(layout.finish()).toEqual(expected.layout);
    }
  });
});

describe("serve-index.json", () => {
  it("lists records in the served order with their spans, and its columns are the records' values", async () => {
    for (const catalog of [await committedCatalog(), await separateRecordsCatalog(), nonAsciiCatalog()]) {
      const files = catalogReleaseFiles(catalog);
      const bytes = Buffer.from(files[CATALOG_FILE] as Uint8Array);
      const index = ServeIndexFile.parse(
        JSON.parse(Buffer.from(files[SERVE_INDEX_FILE] as Uint8Array).toString()),
      );
      expect(index.catalog_bytes).toBe(bytes.byteLength);

      const deps = index.deployments;
      const ids = [...catalog.deployments.map((d) => d.id)].sort();
      expect(deps.id).toEqual(ids);
      deps.id.forEach((id, i) => {
        const record = spanRecord<Deployment>(bytes, deps, i);
        expect(record.id).toBe(id);
        expect([
          decoded(deps.provider_id, i),
          decoded(deps.model_id, i),
          decoded(deps.region, i),
          decoded(deps.mode, i),
          decoded(deps.status, i),
        ]).toEqual([record.provider_id, record.model_id, record.region, record.mode, record.status]);
        expect(deps.provider_model_id[i]).toBe(record.provider_model_id);
        expect(deps.priced.includes(i)).toBe(record.rate_card !== null);
        expect(deps.input_micro_usd[i]).toBe(record.rate_card?.input_micro_usd ?? null);
        expect(deps.output_micro_usd[i]).toBe(record.rate_card?.output_micro_usd ?? null);
        expect(deps.context_tokens[i]).toBe(record.context_tokens);
        for (const [name, entry] of Object.entries(record.capabilities))
          expect(deps.supported[name as keyof typeof deps.supported]?.includes(i) ?? false, name).toBe(
            entry?.status === "supported",
          );
      });

      const lc = index.lifecycle;
      const keys = lc.resource_id.map(
        (id, i) => `${lc.resource_type.values[lc.resource_type.codes[i] as number]} ${id}`,
      );
      expect(keys).toEqual([...keys].sort());
      expect(keys).toHaveLength(stored(catalog).lifecycle.length);
      // format 2: the deployments' own lifecycles are columns by deployment position
      expect(index.format).toBe(deploymentLifecyclesEmbedded(catalog) ? 2 : 1);
      const own = index.deployment_lifecycle;
      expect(own !== undefined).toBe(index.format === 2);
      if (own)
        deps.id.forEach((_, i) => {
          const { lifecycle } = spanRecord<Deployment>(bytes, deps, i);
          expect(Object.keys(own).map((name) => decoded(own[name as keyof typeof own], i))).toEqual([
            lifecycle.announced_at,
            lifecycle.deprecation.state,
            lifecycle.deprecation.date,
            lifecycle.deprecation.precision,
            lifecycle.deprecation.date_type,
            lifecycle.end_of_life.state,
            lifecycle.end_of_life.date,
            lifecycle.end_of_life.precision,
            lifecycle.end_of_life.date_type,
            JSON.stringify(lifecycle.replacement_ids),
            lifecycle.coverage.status,
            lifecycle.last_changed_at,
          ]);
        });
      lc.resource_id.forEach((id, i) => {
        const record = spanRecord<LifecycleRecord>(bytes, lc, i);
        expect(record.resource_id).toBe(id);
        expect([
          decoded(lc.resource_type, i),
          decoded(lc.provider_id, i),
          decoded(lc.model_id, i),
          decoded(lc.status, i),
          decoded(lc.deprecation_state, i),
          decoded(lc.deprecation_date, i),
          decoded(lc.end_of_life_state, i),
          decoded(lc.end_of_life_date, i),
          decoded(lc.coverage_status, i),
          decoded(lc.last_changed_at, i),
        ]).toEqual([
          record.resource_type,
          record.provider_id ?? null,
          record.model_id ?? null,
          record.lifecycle.status,
          record.lifecycle.deprecation.state,
          record.lifecycle.deprecation.date,
          record.lifecycle.end_of_life.state,
          record.lifecycle.end_of_life.date,
          record.lifecycle.coverage.status,
          record.lifecycle.last_changed_at,
        ]);
        expect(lc.summary.includes(i)).toBe(record.summary !== undefined);
      });
    }
  });

  it("is canonical JSON, and the same columns as the index of the catalog loaded whole (no spans)", async () => {
    const catalog = await committedCatalog();
    const text = Buffer.from(catalogReleaseFiles(catalog)[SERVE_INDEX_FILE] as Uint8Array).toString();
    expect(canonicalJson(JSON.parse(text))).toBe(text);
    const withSpans = JSON.parse(text) as ServeIndexFile;
    const without = serveIndexFor(catalog, undefined, deploymentLifecyclesEmbedded(catalog));
    for (const list of [withSpans.deployments, withSpans.lifecycle, without.deployments, without.lifecycle]) {
      const spanned = list as { offset?: number[]; length?: number[] };
      delete spanned.offset;
      delete spanned.length;
    }
    expect(without.deployments).toEqual(withSpans.deployments);
    expect(without.lifecycle).toEqual(withSpans.lifecycle);
    expect(without.deployment_lifecycle).toEqual(withSpans.deployment_lifecycle);
    expect(withSpans.format).toBe(2);
    expect([without.catalog_bytes, without.members]).toEqual([0, {}]);
  });

  it("serves records in id order whatever the catalog's order: a shuffled catalog indexes like the sorted one", async () => {
    const catalog = await committedCatalog();
    const reversed = {
      ...catalog,
      deployments: [...catalog.deployments].reverse(),
      lifecycle: [...catalog.lifecycle].reverse(),
    };
    const sorted = serveIndexFor(catalog);
    const shuffled = serveIndexFor(reversed);
    expect(shuffled.deployments.id).toEqual(sorted.deployments.id);
    expect(shuffled.deployments.id).toEqual([...sorted.deployments.id].sort());
    expect(shuffled.lifecycle.resource_id).toEqual(sorted.lifecycle.resource_id);
    // spans follow their records into the served order
    const { layout } = serializeCatalog(reversed);
    const spanned = serveIndexFor(reversed, layout);
    const last = reversed.deployments.length - 1;
    expect(spanned.deployments.offset[0]).toBe(layout.deployments.offset[last]);
    expect(spanned.deployments.offset[last]).toBe(layout.deployments.offset[0]);
  });
});
