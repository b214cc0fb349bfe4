/**
 * Human progress for `catalog build` on stderr (the pino JSON logs are separate): on a terminal a
 * line per finished source plus one live status line rewritten in place (`\r`); elsewhere (CI,
 * files) plain lines only, one per finished source. A summary table closes the collect stage.
 */
import type { CollectResult } from "./result.js";

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export type SummaryStatus = "ok" | "changed" | "not modified" | "failed" | "skipped";

export function summaryStatus(result: CollectResult): SummaryStatus {
  if (result.status === "failed") return "failed";
  if (result.status === "skipped") return "skipped";
  if (result.changed) return "changed";
  return result.status === "not_modified" ? "not modified" : "ok";
}

function sourceLabel(result: CollectResult): string {
  return `${result.source.provider_id}/${result.source.name}`;
}

function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return "";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function detail(result: CollectResult): string {
  return result.error ?? result.skippedReason ?? "";
}

/** The end-of-collect table: one row per source (status, source, HTTP status, duration, reason) and totals. */
export function formatCollectSummary(results: readonly CollectResult[]): string {
  const rows = results.map((r) => [
    summaryStatus(r),
    sourceLabel(r),
    r.httpStatus === undefined ? "" : String(r.httpStatus),
    formatDuration(r.durationMs),
    detail(r),
  ]);
  const header = ["status", "source", "http", "duration", "reason"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const counts = new Map<SummaryStatus, number>();
  for (const r of results) counts.set(summaryStatus(r), (counts.get(summaryStatus(r)) ?? 0) + 1);
  const totals = (["ok", "changed", "not modified", "failed", "skipped"] as const)
    .map((s) => `${counts.get(s) ?? 0} ${s}`)
    .join(", ");
  return [line(header), ...rows.map(line), `${results.length} sources: ${totals}`].join("\n") + "\n";
}

/** Live progress of one collect run; a null stream writes nothing. */
export class CollectProgress {
  private readonly inFlight = new Set<string>();
  private done = 0;

  constructor(
    private readonly out: ProgressStream | null,
    private readonly total: number,
  ) {}

  start(label: string): void {
    this.inFlight.add(label);
    this.redraw();
  }

  finish(result: CollectResult): void {
    this.inFlight.delete(sourceLabel(result));
    this.done += 1;
    if (!this.out) return;
    const parts = [
      `collect [${this.done}/${this.total}]`,
      summaryStatus(result),
      sourceLabel(result),
      result.httpStatus === undefined ? "" : `HTTP ${result.httpStatus}`,
      formatDuration(result.durationMs),
      detail(result),
    ].filter(Boolean);
    this.clearLive();
    this.out.write(`${parts.join("  ")}\n`);
    this.redraw();
  }

  /** Clears the live line and writes the summary table. */
  end(results: readonly CollectResult[]): void {
    if (!this.out) return;
    this.clearLive();
    this.out.write(formatCollectSummary(results));
  }

  private clearLive(): void {
    if (this.out?.isTTY) this.out.write("\r\x1b[2K");
  }

  private redraw(): void {
    if (!this.out?.isTTY || this.inFlight.size === 0) return;
    const width = Math.max(20, (this.out.columns ?? 100) - 1);
    const text = `collect [${this.done}/${this.total}] fetching ${[...this.inFlight].join(", ")}`;
    this.out.write(`\r\x1b[2K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
  }
}
