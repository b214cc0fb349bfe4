/**
 * Thin adapter over @duckdb/node-api: a compressed in-memory database with bounded memory (it
 * spills to its work directory), bulk loading through temporary NDJSON files read by
 * `read_json` (one statement per table, not one INSERT per row; rows keyed by column, or whole
 * records flattened by SQL), queries returning plain JSON rows, statements handed to DuckDB to
 * run while the caller's JS goes on (`begin`), and Parquet export returning the files' bytes
 * (each file written by one thread, so its bytes are the same from run to run).
 */
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { CatalogError } from "../lib/errors.js";

/** DuckDB's memory limit for a release database (see ReleaseDatabase.open). */
export const DUCKDB_MEMORY_LIMIT = "256MB";

/**
 * The COPY options of every Parquet file a release or an export writes. Row groups of 16,384
 * rows: with DuckDB's default (122,880) the writer buffers a whole 100,000-deployment catalog's
 * columns at once, which under the memory limit spills the loaded tables to disk (measured:
 * 1.03 s -> 0.28 s for the deployments file of a 100k build, same peak memory).
 */
export const PARQUET_COPY_OPTIONS = "FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 16384";

const STAGE_CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;
/**
 * Threads for loading and querying: the cores the build's own JS thread leaves, at most two
 * (one on a two-core machine). DuckDB loads a build's records while that thread writes
 * serve-index.json, prices.json and facts.json, so a second DuckDB thread there only takes
 * turns with it. On the two-core build machine, one thread with the memory settings of
 * ReleaseDatabase.open made a 100,000-deployment build 0.91x as long, at a lower peak; one
 * thread without them, 0.96x as long at a 48 MiB higher peak (docs/lean-core.md). Insertion
 * order is not preserved: every query whose rows are read (checks, diff, exports, Parquet
 * files) orders them itself, and without it DuckDB loads a 100,000-deployment catalog about
 * 1.5x faster and its Parquet files about 3x faster.
 */
const LOAD_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));

/**
 * The database the tables live in: in memory, attached with compression and made every
 * connection's default (USE). DuckDB compresses such a database's tables when it checkpoints
 * them, which it does by itself after a large load: a 100,000-deployment catalog's deployments
 * table then holds about 7 MB, against 153 MB in the default in-memory database. A small
 * catalog's tables stay as loaded.
 */
const TABLES_DATABASE = "release_tables";

function* rowLines(rows: Iterable<Record<string, unknown>>): Generator<string> {
  for (const row of rows) yield JSON.stringify(row);
}

/** A query's result fetched from DuckDB (ReleaseDatabase.fetch): its rows are made on demand. */
export interface FetchedRows<T> {
  /** The rows as plain objects (as ReleaseDatabase.all gives them); each call makes new ones. */
  rows(): T[];
}

/** Column name -> DuckDB type, in table order. */
export type ColumnSpec = ReadonlyArray<readonly [name: string, type: string]>;

/** A table's rows written to a staging file by stageRows (file null: no rows), not yet loaded. */
export interface StagedTable {
  table: string;
  columns: ColumnSpec;
  file: string | null;
  /**
   * How the table's rows come out of the file, when its lines are not the rows themselves: the
   * columns read_json reads (nested types allowed) and one SELECT expression per table column,
   * over the file aliased `r`. Absent: each line is a row keyed by column name.
   */
  read?: { columns: ColumnSpec; select: readonly string[] };
}

/** The statements that create a staged table and load its rows (see ReleaseDatabase.loadStaged). */
export function loadStagedStatements(staged: StagedTable): string[] {
  const { table, columns, file } = staged;
  const create = `CREATE OR REPLACE TABLE ${table} (${columns.map(([n, t]) => `${n} ${t}`).join(", ")})`;
  if (file === null) return [create];
  const read = staged.read ?? { columns, select: columns.map(([n]) => n) };
  const spec = read.columns.map(([n, t]) => `${n}: ${sqlString(t)}`).join(", ");
  return [
    create,
    `INSERT INTO ${table} SELECT ${read.select.join(", ")} FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = {${spec}}, maximum_object_size = 16777216) AS r`,
  ];
}

export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function plainValue(value: unknown): unknown {
  if (typeof value === "bigint") {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
      return value.toString();
    return Number(value);
  }
  if (Array.isArray(value)) return value.map(plainValue);
  return value;
}

export class ReleaseDatabase {
  /** Statements started by `begin`, each settled (never rejected) before the database closes. */
  private readonly begun: Promise<unknown>[] = [];

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    /** The connections `begin` runs statements on. */
    private readonly background: readonly DuckDBConnection[],
    private readonly workDir: string,
  ) {
    this.idle = [...background];
  }

  /** Background connections not running a script. */
  private readonly idle: DuckDBConnection[];

  static async open(): Promise<ReleaseDatabase> {
    try {
      // loaded on first use, so a process that never opens a database (the server, most CLI
      // commands) never maps DuckDB's native library
      const { DuckDBInstance } = await import("@duckdb/node-api");
      const instance = await DuckDBInstance.create(":memory:", { threads: String(LOAD_THREADS) });
      const connection = await instance.connect();
      await connection.run("SET preserve_insertion_order = false");
      const workDir = await mkdtemp(join(tmpdir(), "catalog-release-"));
      // Bounded memory: beyond the limit DuckDB moves table and operator data to its work
      // directory instead of growing (a 100,000-deployment build holds two catalogs' tables and
      // writes Parquet from them).
      await connection.run(`SET temp_directory = ${sqlString(join(workDir, "spill"))}`);
      await connection.run(`SET memory_limit = ${sqlString(DUCKDB_MEMORY_LIMIT)}`);
      // Memory DuckDB frees goes back to the system soon (its allocator's caches flushed past
      // 16 MB, by background threads), so what the records' load used is not still held while
      // the Parquet files are written beside the build's largest JS heap. With the compressed
      // tables and one thread: a 100,000-deployment build's peak 914 against 958 MiB, a second
      // build's (two catalogs' tables) 1,015 against 1,099 MiB (docs/lean-core.md).
      await connection.run("SET allocator_flush_threshold = '16MB'");
      await connection.run("SET allocator_background_threads = true");
      await connection.run(`ATTACH ':memory:' AS ${TABLES_DATABASE} (COMPRESS)`);
      const background = [await instance.connect(), await instance.connect()];
      for (const each of [connection, ...background]) await each.run(`USE ${TABLES_DATABASE}`);
      return new ReleaseDatabase(instance, connection, background, workDir);
    } catch (error) {
      throw new CatalogError(
        "io_failed",
        `cannot open DuckDB: ${(error as Error).message}`,
        {},
        { cause: error },
      );
    }
  }

  async run(sql: string): Promise<void> {
    try {
      await this.connection.run(sql);
    } catch (error) {
      throw new CatalogError(
        "io_failed",
        `DuckDB statement failed: ${(error as Error).message}`,
        { sql },
        { cause: error },
      );
    }
  }

  /** Rows as plain objects; BIGINT values become numbers (strings when beyond 2^53). */
  async all<T = Record<string, unknown>>(sql: string): Promise<T[]> {
    return (await this.fetch<T>(sql)).rows();
  }

  /**
   * Run a query and fetch its result from DuckDB, without turning it into JS values yet:
   * `rows()` does that (as `all` does), on the caller's thread, when the caller wants it. The
   * conversion is the costly half of a large result (a first build's diff: 100,000 added
   * deployments, about 0.45 s, against milliseconds for DuckDB's query), so a caller can hand
   * DuckDB its next statements first and convert while they run.
   */
  async fetch<T = Record<string, unknown>>(sql: string): Promise<FetchedRows<T>> {
    let reader: Awaited<ReturnType<DuckDBConnection["runAndReadAll"]>>;
    try {
      reader = await this.connection.runAndReadAll(sql);
    } catch (error) {
      throw new CatalogError(
        "io_failed",
        `DuckDB query failed: ${(error as Error).message}`,
        { sql },
        { cause: error },
      );
    }
    return {
      rows: () => {
        // read by column, each row built by name (the reader's row objects, copied, cost about
        // twice as much: a first build's diff reads 100,000 added deployments)
        const columns = reader.getColumnsJS();
        const fields = reader.columnNames().map((name, j) => ({ name, values: columns[j] ?? [] }));
        const rows: T[] = [];
        for (let i = 0; i < reader.currentRowCount; i++) {
          const plain: Record<string, unknown> = {};
          for (const { name, values } of fields) plain[name] = plainValue(values[i]);
          rows.push(plain as T);
        }
        return rows;
      },
    };
  }

  /**
   * Create `table` with the given columns and bulk-load the rows (objects keyed by column
   * name): stageRows then loadStaged.
   */
  async loadTable(
    table: string,
    columns: ColumnSpec,
    rows: Iterable<Record<string, unknown>>,
  ): Promise<void> {
    await this.loadLines(table, columns, rowLines(rows));
  }

  /** Create a table and load its rows given as JSON lines (one object each). */
  async loadLines(table: string, columns: ColumnSpec, lines: Iterable<string>): Promise<void> {
    const staged = await this.stageTable(table, columns, lines);
    await this.loadStaged(staged);
    await this.unstage(staged.file);
  }

  /**
   * Write the rows of a table-to-be to a staging file (NDJSON in the database's work
   * directory), to be loaded later by loadStaged. The rows may be generated on the way: they
   * are written in batches, so neither all row objects nor one string of every row need exist
   * at once, and a caller can stage its tables, let go of the values they came from, and only
   * then have DuckDB load them.
   */
  async stageRows(
    table: string,
    columns: ColumnSpec,
    rows: Iterable<Record<string, unknown>>,
  ): Promise<StagedTable> {
    return this.stageTable(table, columns, rowLines(rows));
  }

  /** stageRows for rows already serialized as JSON lines (one object each). */
  async stageTable(table: string, columns: ColumnSpec, lines: Iterable<string>): Promise<StagedTable> {
    return { table, columns, file: await this.stageLines(table, lines) };
  }

  /** Create a staged table and load its rows (one read_json statement; the file is left for the caller). */
  async loadStaged(staged: StagedTable): Promise<void> {
    for (const statement of loadStagedStatements(staged)) await this.run(statement);
  }

  /** Write lines (one JSON value each) to a staging file in the work directory; null when there are none. */
  async stageLines(name: string, lines: Iterable<string>): Promise<string | null> {
    const writer = this.lineWriter(name);
    try {
      for (const line of lines) writer.write(line);
    } catch (error) {
      writer.close();
      throw error;
    }
    return writer.close();
  }

  /**
   * A staging file written line by line as the caller produces the lines (synchronously: a
   * serializer hands them over as it goes), as text or as UTF-8 bytes (a record the serializer
   * has encoded already is copied, not encoded again); `close` gives the file, or null when no
   * line came.
   */
  lineWriter(name: string): {
    write: (line: string) => void;
    writeBytes: (line: Uint8Array) => void;
    close: () => string | null;
  } {
    const file = join(this.workDir, `${name}.ndjson`);
    const fd = openSync(file, "w");
    const chunk = Buffer.allocUnsafe(STAGE_CHUNK_BYTES);
    let used = 0;
    let written = 0;
    let closed = false;
    const flush = () => {
      let offset = 0;
      while (offset < used) offset += writeSync(fd, chunk, offset, used - offset);
      used = 0;
    };
    const writeBytes = (line: Uint8Array) => {
      if (used + line.byteLength + 1 > chunk.byteLength) flush();
      if (line.byteLength + 1 > chunk.byteLength) {
        let offset = 0;
        while (offset < line.byteLength) offset += writeSync(fd, line, offset, line.byteLength - offset);
        chunk[used++] = NEWLINE;
      } else {
        chunk.set(line, used);
        used += line.byteLength;
        chunk[used++] = NEWLINE;
      }
      written++;
    };
    return {
      write: (line) => writeBytes(Buffer.from(line, "utf8")),
      writeBytes,
      close: () => {
        if (!closed) {
          closed = true;
          flush();
          closeSync(fd);
        }
        if (written > 0) return file;
        rmSync(file, { force: true });
        return null;
      },
    };
  }

  /** Remove a staging file. */
  async unstage(file: string | null): Promise<void> {
    if (file !== null) await rm(file, { force: true });
  }

  /**
   * Run `COPY (query) TO ... (FORMAT parquet)` for each named query and return each file's
   * bytes: the COPYs one after another, in one script on a background connection, with
   * `threads = 1`, so each file's bytes are the same from run to run. The script is handed over
   * before this returns, so the caller's JS goes on while DuckDB writes (a build checks every
   * record's schema meanwhile); the usual thread count is set again once the files are written. One file at a time holds one sorted copy of a table, not two: at 100,000
   * deployments, writing both side by side cost 30-60 MiB more peak memory and saved no time.
   * `first`: statements the script runs before the files, with the usual thread count (a build's
   * checks and diff, so that none of DuckDB's work waits for the caller's JS).
   */
  parquetFiles(
    queries: Readonly<Record<string, string>>,
    first: readonly string[] = [],
  ): Promise<Record<string, Uint8Array>> {
    const names = Object.keys(queries);
    const file = (name: string) => join(this.workDir, `${name}.parquet`);
    const written = this.begin([
      ...first,
      "SET threads = 1",
      ...names.map((name) => `COPY (${queries[name]}) TO ${sqlString(file(name))} (${PARQUET_COPY_OPTIONS})`),
    ]);
    return this.settleBeforeClose(
      (async () => {
        try {
          await written;
        } finally {
          await this.run(`SET threads = ${LOAD_THREADS}`);
        }
        const out: Record<string, Uint8Array> = {};
        for (const name of names) {
          out[name] = await readFile(file(name));
          await rm(file(name), { force: true });
        }
        return out;
      })(),
    );
  }

  /**
   * Hand statements to DuckDB now, on a connection of their own, and return at once: they are
   * given to DuckDB synchronously, as one script, so its threads run them while the caller's JS
   * goes on, even through long synchronous work that never yields to the event loop (a build
   * writing facts.json while DuckDB loads its records). Two scripts may run at once (a build's
   * previous release and its new records: different tables). The caller awaits the promise
   * before it reads what the statements made; a failure is that promise's to report, never an
   * unhandled rejection; the database closes only after every script has settled.
   */
  begin(statements: readonly string[]): Promise<void> {
    const connection = this.idle.pop();
    if (!connection) throw new Error("ReleaseDatabase.begin: both background connections are busy");
    const sql = statements.join(";\n");
    const done = connection.run(sql).then(
      () => {
        this.idle.push(connection);
      },
      (error: unknown) => {
        this.idle.push(connection);
        throw new CatalogError(
          "io_failed",
          `DuckDB statement failed: ${(error as Error).message}`,
          { sql },
          { cause: error },
        );
      },
    );
    return this.settleBeforeClose(done);
  }

  /**
   * Work on this database that the caller does not await at once (it goes on with JS work):
   * the database closes only after it has settled, and its failure is the returned promise's
   * to report, never an unhandled rejection.
   */
  settleBeforeClose<T>(work: Promise<T>): Promise<T> {
    this.begun.push(work.catch(() => undefined));
    return work;
  }

  async close(): Promise<void> {
    await Promise.all(this.begun);
    for (const connection of this.background) connection.closeSync();
    this.connection.closeSync();
    this.instance.closeSync();
    await rm(this.workDir, { recursive: true, force: true });
  }
}

/** Open a database, run `work`, always close it. */
export async function withDatabase<T>(work: (db: ReleaseDatabase) => Promise<T>): Promise<T> {
  const db = await ReleaseDatabase.open();
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}
