import { describe, expect, it } from "vitest";
import { extractMonitored } from "../../src/collect/index.js";
import { CatalogError } from "../../src/lib/errors.js";
import { sha256Hex } from "../../src/lib/hash.js";
import type { SourceDefinition } from "../../src/schema/index.js";

type MonitorSource = Pick<SourceDefinition, "format" | "monitor" | "url">;
const htmlSource = (selector?: string): MonitorSource => ({
  format: "html",
  url: "https://example.com/pricing",
  ...(selector ? { monitor: { selector } } : {}),
});

function pricingPage(opts: {
  nonce: string;
  renderedAt: string;
  price: string;
  spacing?: string;
  build: string;
}) {
  const sp = opts.spacing ?? "\n      ";
  return `<!doctype html>
<html><head>
  <script nonce="${opts.nonce}">window.__RENDERED_AT__ = "${opts.renderedAt}";</script>
  <link rel="preload" href="/_next/static/${opts.build}/main.js" as="script">
  <style>.price{color:red}</style>
</head>
<body data-build-id="${opts.build}">
  <nav><a href="/">Home</a></nav>
  <main data-build-id="${opts.build}">
    <h2>Pricing</h2>
    <!-- rendered ${opts.renderedAt} -->
    <table class="pricing" data-reactid=".0.${opts.build}">${sp}<thead><tr><th>Model</th><th>Input</th></tr></thead>${sp}<tbody>
        <tr data-v-1a2b3c4d><td>gpt-4o</td>${sp}<td class="price">${opts.price}</td></tr>
        <tr><td>  gpt-4o   mini </td><td class="price">$0.15</td></tr>
      </tbody>
    </table>
    <script nonce="${opts.nonce}" integrity="sha384-${opts.build}">track("${opts.renderedAt}")</script>
    <noscript><img src="/pixel?t=${opts.renderedAt}"></noscript>
    <iframe src="/ads?${opts.build}"></iframe>
    <p nonce="${opts.nonce}" data-request-id="${opts.renderedAt}">Prices <b>per</b> <i>1M</i> tokens.</p>
  </main>
</body></html>`;
}

const base = { nonce: "abc123", renderedAt: "2026-11-22T10:00:00Z", price: "$2.50", build: "b1" };

describe("html monitored content", () => {
  it("is the same when only a script timestamp, nonce, build id, comment or whitespace changed", () => {
    const first = extractMonitored(htmlSource("main"), pricingPage(base));
    const variants = [
      { ...base, renderedAt: "2026-11-23T04:12:55Z" },
      { ...base, nonce: "zzz999" },
      { ...base, build: "b2" },
      { ...base, spacing: "" },
      { ...base, spacing: "\n\n\t  \n" },
    ];
    for (const variant of variants)
      expect(extractMonitored(htmlSource("main"), pricingPage(variant)).sha256).toBe(first.sha256);
    // the same holds for the whole body
    const body = extractMonitored(htmlSource(), pricingPage(base));
    expect(extractMonitored(htmlSource(), pricingPage({ ...base, nonce: "n2", build: "b9" })).sha256).toBe(
      body.sha256,
    );
  });

  it("changes when a price cell changes", () => {
    const before = extractMonitored(htmlSource("table.pricing"), pricingPage(base));
    const after = extractMonitored(htmlSource("table.pricing"), pricingPage({ ...base, price: "$2.00" }));
    expect(after.sha256).not.toBe(before.sha256);
    expect(after.content).toContain("$2.00");
  });

  it("keeps the content and drops the noise", () => {
    const { content, sha256 } = extractMonitored(htmlSource("main"), pricingPage(base));
    expect(sha256).toBe(sha256Hex(content));
    expect(content).toContain('<table class="pricing">');
    expect(content).toContain("<td>gpt-4o mini</td>");
    expect(content).toContain("<p>Prices <b>per</b> <i>1M</i> tokens.</p>");
    expect(content).toContain("<main><h2>Pricing</h2>");
    for (const noise of [
      "script",
      "noscript",
      "iframe",
      "nonce",
      "integrity",
      "data-reactid",
      "data-v-",
      "<!--",
    ])
      expect(content).not.toContain(noise);
    expect(content).not.toContain("Home"); // outside the selection
  });

  it("keeps id and class values even when they look like hashes", () => {
    const page = '<html><body><div id="a1b2c3d4e5" class="css-9f8e7d"><p>x</p></div></body></html>';
    const { content } = extractMonitored(htmlSource("div"), page);
    expect(content).toContain('id="a1b2c3d4e5"');
    expect(content).toContain('class="css-9f8e7d"');
  });

  it("is idempotent: extracting extracted content gives the same bytes", () => {
    const pages = [
      [htmlSource("main"), pricingPage(base)],
      [htmlSource(), pricingPage(base)],
      [htmlSource("main > table:nth-of-type(1)"), pricingPage(base)],
      [htmlSource("tbody tr"), pricingPage(base)],
      [htmlSource("td.price"), pricingPage(base)],
      [htmlSource("b, i"), pricingPage(base)],
      [htmlSource("pre"), "<html><body><pre>\n\n  keep   this\n  as is</pre></body></html>"],
    ] as const;
    for (const [source, page] of pages) {
      const once = extractMonitored(source, page);
      const twice = extractMonitored(source, once.content);
      expect(twice.content).toBe(once.content);
      expect(twice.sha256).toBe(once.sha256);
    }
  });

  it("takes an element once when the selector also matches its descendants", () => {
    const page = "<html><body><div class='x'><div class='x'>inner</div></div></body></html>";
    const { content } = extractMonitored(htmlSource("div.x"), page);
    expect(content.match(/inner/g)).toHaveLength(1);
  });

  it("is an error when the selector matches nothing", () => {
    expect(() => extractMonitored(htmlSource("table.gone"), pricingPage(base))).toThrow(
      /monitor selector "table.gone" matches nothing/,
    );
  });

  it("is an error to replay a capture extracted with another selector", () => {
    const { content } = extractMonitored(htmlSource("main"), pricingPage(base));
    expect(() => extractMonitored(htmlSource("table"), content)).toThrow(/extracted with selector "main"/);
  });
});

describe("json monitored content", () => {
  const source = (json_pointer?: string): MonitorSource => ({
    format: "json",
    url: "https://example.com/models.json",
    ...(json_pointer ? { monitor: { json_pointer } } : {}),
  });
  const doc = {
    generated_at: "2026-11-22T00:00:00Z",
    data: { models: [{ id: "a", price: 1, updated: "x" }], etc: 1 },
    list: ["zero", { "a/b": { v: 1 } }],
  };

  it("is canonical: key order and whitespace do not matter", () => {
    const a = extractMonitored(source(), JSON.stringify(doc));
    const b = extractMonitored(
      source(),
      JSON.stringify({ list: doc.list, data: doc.data, generated_at: doc.generated_at }, null, 2),
    );
    expect(a.sha256).toBe(b.sha256);
  });

  it("keeps only the value at the pointer, at its own path", () => {
    expect(extractMonitored(source("/data/models"), JSON.stringify(doc)).content).toBe(
      '{"data":{"models":[{"id":"a","price":1,"updated":"x"}]}}',
    );
    expect(extractMonitored(source("/list/1/a~1b"), JSON.stringify(doc)).content).toBe(
      '{"list":[null,{"a/b":{"v":1}}]}',
    );
  });

  it("drops volatile keys when told which they are", () => {
    const options = { volatileJsonKeys: ["generated_at", "updated"] };
    const a = extractMonitored(source(), JSON.stringify(doc), options);
    const b = extractMonitored(
      source(),
      JSON.stringify({ ...doc, generated_at: "2027-01-01T00:00:00Z" }),
      options,
    );
    expect(a.sha256).toBe(b.sha256);
    expect(a.content).not.toContain("updated");
    const c = extractMonitored(source(), JSON.stringify({ ...doc, data: { ...doc.data, etc: 2 } }), options);
    expect(c.sha256).not.toBe(a.sha256);
  });

  it("is idempotent", () => {
    for (const pointer of [undefined, "/data/models", "/list/1/a~1b", "/data"]) {
      const once = extractMonitored(source(pointer), JSON.stringify(doc));
      expect(extractMonitored(source(pointer), once.content).content).toBe(once.content);
    }
  });

  it("is an error when the pointer matches nothing or the body is not JSON", () => {
    expect(() => extractMonitored(source("/data/nope"), JSON.stringify(doc))).toThrow(/matches nothing/);
    expect(() => extractMonitored(source("/list/7"), JSON.stringify(doc))).toThrow(/matches nothing/);
    expect(() => extractMonitored(source(), "{not json")).toThrow(CatalogError);
  });
});

describe("markdown monitored content", () => {
  const source: MonitorSource = { format: "markdown", url: "https://example.com/README.md" };

  it("normalizes line endings and whitespace only", () => {
    const a = extractMonitored(source, "# Models\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
    const b = extractMonitored(
      source,
      "\uFEFF\r\n# Models  \r\n\r\n\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |\t\r\n\r\n",
    );
    expect(b.content).toBe(a.content);
    expect(a.content).toBe("# Models\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
    const c = extractMonitored(source, "# Models\n\n| a | b |\n|---|---|\n| 1 | 3 |\n");
    expect(c.sha256).not.toBe(a.sha256);
    expect(extractMonitored(source, a.content).content).toBe(a.content);
  });
});
