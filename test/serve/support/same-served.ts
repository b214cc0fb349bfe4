/** Two ServedReleases of the same catalog hold the same thing: every record's bytes, every column, index and order. */
import { expect } from "vitest";
import type { ServedRelease } from "../../../src/serve/catalog-index.js";

/** Every record serializes to the same bytes; columns, exact-match indexes, search text and sort orders are equal. */
export async function expectSameServed(a: ServedRelease, b: ServedRelease): Promise<void> {
  for (const [name, x, y] of [
    ["deployments", a.deploymentJson, b.deploymentJson],
    ["lifecycle", a.lifecycleJson, b.lifecycleJson],
    ["events", a.eventJson, b.eventJson],
  ] as const) {
    expect(x.length, name).toBe(y.length);
    for (let i = 0; i < x.length; i++) expect(x.at(i)?.toString(), `${name} ${i}`).toBe(y.at(i)?.toString());
  }
  expect(a.deploymentFields).toEqual(b.deploymentFields);
  expect(a.maxOutputTokens).toEqual(b.maxOutputTokens);
  expect(a.lifecycleFields).toEqual(b.lifecycleFields);
  expect([...a.deploymentById]).toEqual([...b.deploymentById]);
  for (const key of ["byProvider", "byModel", "byRegion", "byMode", "bySupportedCapability"] as const)
    expect([...a[key]], key).toEqual([...b[key]]);
  expect([a.priced, a.unpriced, a.deploymentSearch]).toEqual([b.priced, b.unpriced, b.deploymentSearch]);
  for (const key of ["end_of_life", "deprecation", "last_changed"] as const)
    expect([a.lifecycleOrders[key].asc, a.lifecycleOrders[key].desc], key).toEqual([
      b.lifecycleOrders[key].asc,
      b.lifecycleOrders[key].desc,
    ]);
  expect(await a.deployments.all()).toEqual(await b.deployments.all());
}
