/**
 * ReleaseDatabase.begin: statements handed to DuckDB at once, on a connection of their own, run
 * while the caller's JS goes on (a build writes facts.json meanwhile), even when that JS never
 * yields to the event loop; their tables are there for the main connection once awaited; a
 * failure is the promise's, never an unhandled rejection; the database closes only after
 * every such script has settled.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CatalogError } from "../../src/lib/errors.js";
import { withDatabase } from "../../src/release/duckdb.js";

/** A script long enough that a synchronous wait overlaps it (a million rows summed). */
const WORK = [
  "CREATE TABLE a AS SELECT range AS x FROM range(1000000)",
  "CREATE TABLE b AS SELECT sum(x)::BIGINT AS total FROM a",
];

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // synchronous JS work: no event-loop turn
  }
}

describe("ReleaseDatabase.begin", () => {
  it("runs a script while synchronous JS work runs, and its tables are readable once awaited", async () => {
    const rows = await withDatabase(async (db) => {
      const done = db.begin(WORK);
      busyWait(50);
      await done;
      return db.all<{ total: number }>("SELECT total FROM b");
    });
    expect(rows).toEqual([{ total: (1_000_000 * 999_999) / 2 }]);
  });

  it("runs the script during synchronous work: it was handed over before any await", async () => {
    const dir = await mkdtemp(join(tmpdir(), "begin-"));
    const file = join(dir, "done.csv");
    try {
      const seen = await withDatabase(async (db) => {
        const done = db.begin([`COPY (SELECT 42 AS answer) TO '${file}' (FORMAT csv)`]);
        // synchronous until the file appears (or 20 s): no event-loop turn in between
        const end = performance.now() + 20_000;
        let appeared = false;
        while (!appeared && performance.now() < end) appeared = existsSync(file);
        await done;
        return appeared;
      });
      expect(seen).toBe(true);
      expect(await readFile(file, "utf8")).toBe("answer\n42\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("two scripts at once; a third while both run is refused", async () => {
    await withDatabase(async (db) => {
      const one = db.begin(["CREATE TABLE one AS SELECT 1 AS v"]);
      const two = db.begin(["CREATE TABLE two AS SELECT 2 AS v"]);
      expect(() => db.begin(["SELECT 3"])).toThrow(/busy/);
      await Promise.all([one, two]);
      expect(await db.all("SELECT (SELECT v FROM one) + (SELECT v FROM two) AS s")).toEqual([{ s: 3 }]);
      // both connections are idle again
      await db.begin(["CREATE TABLE three AS SELECT 3 AS v"]);
    });
  });

  it("a failing script rejects its promise with io_failed and the statement, unhandled never", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const error = await withDatabase(async (db) => {
        const failing = db.begin(["CREATE TABLE ok AS SELECT 1", "SELECT * FROM no_such_table"]);
        // not awaited for a while: other work goes on
        await new Promise((resolve) => setTimeout(resolve, 50));
        return failing.then(
          () => null,
          (e: unknown) => e,
        );
      });
      expect(error).toBeInstanceOf(CatalogError);
      expect((error as CatalogError).code).toBe("io_failed");
      expect((error as Error).message).toMatch(/no_such_table/);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("closes only after a begun script has settled, even when the work in between throws", async () => {
    let settled = false;
    await expect(
      withDatabase(async (db) => {
        db.settleBeforeClose(
          db.begin(WORK).then(() => {
            settled = true;
          }),
        );
        throw new Error("the JS phase failed");
      }),
    ).rejects.toThrow("the JS phase failed");
    expect(settled).toBe(true);
  });
});

describe("ReleaseDatabase.fetch", () => {
  it("holds a result until its rows are asked for: statements run in between do not change them", async () => {
    const { first, second } = await withDatabase(async (db) => {
      await db.run("CREATE TABLE t AS SELECT range AS n, 'row ' || range AS label FROM range(3000)");
      const fetched = await db.fetch<{ n: number; label: string }>("SELECT n, label FROM t ORDER BY n");
      // what a build does between the diff's queries and its rows: more statements, here
      // ones that would change the answer if it were read again
      await db.run("DELETE FROM t WHERE n % 2 = 0");
      await db.run("DROP TABLE t");
      return { first: fetched.rows(), second: fetched.rows() };
    });
    expect(first).toHaveLength(3000);
    expect(first[0]).toEqual({ n: 0, label: "row 0" });
    expect(first[2999]).toEqual({ n: 2999, label: "row 2999" });
    // each call makes new objects with the same values
    expect(second).toEqual(first);
    expect(second[0]).not.toBe(first[0]);
  });

  it("reports a failing query as io_failed with its SQL, at the fetch", async () => {
    const error = await withDatabase((db) => db.fetch("SELECT * FROM missing_table")).catch((e) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).code).toBe("io_failed");
    expect((error as CatalogError).message).toMatch(/missing_table/);
  });
});

describe("ReleaseDatabase.open", () => {
  it("keeps every connection's tables in one in-memory database attached with compression", async () => {
    const where =
      "SELECT database_name AS name, path, CAST(options AS VARCHAR) AS options FROM duckdb_databases() WHERE database_name = current_database()";
    const seen = await withDatabase(async (db) => {
      // a script on a background connection and a query on the main one see the same database
      await db.begin([`CREATE TABLE seen_by_script AS ${where}`]);
      return { script: await db.all("SELECT * FROM seen_by_script"), main: await db.all(where) };
    });
    expect(seen.script).toEqual(seen.main);
    expect(seen.main).toHaveLength(1);
    expect(seen.main[0]).toMatchObject({ name: "release_tables", path: null });
    expect(String(seen.main[0]?.options)).toMatch(/compress[^,}]*true/);
  });
});
