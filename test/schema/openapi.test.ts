import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerOpenapi } from "../../src/cli/openapi.js";
import {
  ListDeploymentsQuery,
  ListEventsQuery,
  ListLifecycleQuery,
  ProblemCode,
} from "../../src/schema/index.js";
import { buildOpenApiDocument, serializeOpenApiDocument } from "../../src/schema/openapi.js";

// biome-ignore lint/suspicious/noExplicitAny: the test walks an untyped JSON document
type Json = Record<string, any>;

const CHECKED_IN = fileURLToPath(new URL("../../src/schema/openapi.json", import.meta.url));
const generated = serializeOpenApiDocument(buildOpenApiDocument());
const doc = JSON.parse(generated) as Json;

/** Follows a local `$ref` (one level at a time) until a non-reference object is reached. */
function resolve(node: Json): Json {
  let current = node;
  for (let hops = 0; typeof current.$ref === "string"; hops++) {
    if (hops > 10) throw new Error(`reference loop at ${node.$ref}`);
    const pointer = (current.$ref as string).replace(/^#\//, "").split("/");
    current = pointer.reduce<Json>((at, key) => at?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    if (current === undefined) throw new Error(`unresolved reference ${node.$ref}`);
  }
  return current;
}

function operation(path: string, method: string): Json {
  const op = doc.paths?.[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
  return op;
}

const GETS = [
  "/v1/deployments",
  "/v1/deployments/{deploymentId}",
  "/v1/deployments/{deploymentId}/history",
  "/v1/deployments/{deploymentId}/prices",
  "/v1/lifecycle",
  "/v1/lifecycle/events",
  "/v1/providers",
  "/v1/models",
  "/v1/models/{modelId}",
  "/v1/releases",
  "/v1/releases/{releaseId}",
  "/v1/releases/{releaseId}/diff",
];
const POSTS = ["/v1/deployments/compare", "/v1/pricing/calculate"];

/** Error statuses each endpoint must document (docs/decisions.md, Errors). */
const EXPECTED_ERRORS: Array<[string, string, number[]]> = [
  ["/v1/deployments", "get", [400, 401, 405, 429, 503]],
  ["/v1/deployments/{deploymentId}", "get", [400, 401, 404, 405, 429, 503]],
  ["/v1/lifecycle", "get", [400, 401, 405, 429, 503]],
  ["/v1/lifecycle/events", "get", [400, 401, 405, 429, 503]],
  ["/v1/deployments/compare", "post", [400, 401, 405, 413, 415, 429, 503]],
  ["/v1/pricing/calculate", "post", [400, 401, 404, 405, 413, 415, 422, 429, 503]],
];

describe("OpenAPI document", () => {
  it("the checked-in src/schema/openapi.json is the generated document (regenerate with `catalog openapi --out src/schema/openapi.json`)", async () => {
    const checkedIn = await readFile(CHECKED_IN, "utf8");
    expect(checkedIn).toBe(generated);
  });

  it("generating twice gives byte-identical output", () => {
    expect(serializeOpenApiDocument(buildOpenApiDocument())).toBe(generated);
  });

  it("is a valid OpenAPI 3.1 document according to @readme/openapi-parser", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(JSON.parse(generated));
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("the validator rejects a document with a broken reference (the validation test can fail)", async () => {
    const broken = JSON.parse(generated) as Json;
    broken.paths["/v1/deployments"].get.responses["200"].content["application/json"].schema = {
      $ref: "#/components/schemas/NoSuchSchema",
    };
    const result = await validate(broken as Parameters<typeof validate>[0]);
    expect(result.valid).toBe(false);
  });

  it("every $ref in the document resolves", () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref" && typeof value === "string") refs.push(value);
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const target of new Set(refs)) expect(() => resolve({ $ref: target }), target).not.toThrow();
    expect(generated).not.toContain("$defs");
    expect(generated).not.toContain('"$schema"');
  });

  it("documents the five endpoints of the spec, calculate, history, price history and browsing, the document, its HTML page and the probes", () => {
    for (const path of GETS) {
      operation(path, "get");
      operation(path, "head");
    }
    for (const path of POSTS) operation(path, "post");
    for (const path of ["/v1/openapi.json", "/docs", "/healthz", "/readyz"]) operation(path, "get");
    expect(Object.keys(doc.paths).sort()).toEqual(
      [...GETS, ...POSTS, "/v1/openapi.json", "/docs", "/healthz", "/readyz"].sort(),
    );
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Json).map((op) => (op as Json).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("authentication is optional on the GET endpoints and required on compare and calculate (spec 5)", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const path of GETS) expect(operation(path, "get").security).toEqual([{}, { bearerAuth: [] }]);
    for (const path of POSTS) expect(operation(path, "post").security).toEqual([{ bearerAuth: [] }]);
    expect(operation("/healthz", "get").security).toEqual([]);
  });

  it("query parameters are exactly the fields of the query schemas, with the spec's meanings and defaults", () => {
    const cases: Array<[string, { shape: Record<string, unknown> }]> = [
      ["/v1/deployments", ListDeploymentsQuery],
      ["/v1/lifecycle", ListLifecycleQuery],
      ["/v1/lifecycle/events", ListEventsQuery],
    ];
    for (const [path, query] of cases) {
      const params = (operation(path, "get").parameters as Json[]).map(resolve);
      const inQuery = params.filter((p) => p.in === "query");
      expect(inQuery.map((p) => p.name)).toEqual(Object.keys(query.shape));
      for (const p of inQuery) {
        expect(p.required, `${path} ${p.name}`).toBe(false);
        expect(typeof p.description, `${path} ${p.name} has a description`).toBe("string");
        expect(p.schema, `${path} ${p.name} has a schema`).toBeTypeOf("object");
      }
      const byName = Object.fromEntries(inQuery.map((p) => [p.name, p.schema]));
      expect(byName.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 500, default: 100 });
      expect(byName.offset).toMatchObject({ type: "integer", minimum: 0, default: 0 });
      expect(params.map((p) => p.name)).toContain("If-None-Match");
    }
    const lifecycle = Object.fromEntries(
      (operation("/v1/lifecycle", "get").parameters as Json[]).map(resolve).map((p) => [p.name, p.schema]),
    );
    expect(lifecycle.include_unknown).toMatchObject({ type: "boolean", default: true });
    expect(lifecycle.sort).toMatchObject({
      default: "end_of_life",
      enum: ["end_of_life", "deprecation", "last_changed"],
    });
    expect(lifecycle.order).toMatchObject({ default: "asc", enum: ["asc", "desc"] });
    expect(lifecycle.status.enum).toEqual([
      "preview",
      "available",
      "legacy",
      "deprecated",
      "retired",
      "unknown",
    ]);
    const events = Object.fromEntries(
      (operation("/v1/lifecycle/events", "get").parameters as Json[])
        .map(resolve)
        .map((p) => [p.name, p.schema]),
    );
    expect(events.event_type.enum).toEqual([
      "lifecycle.source_changed",
      "lifecycle.source_recovered",
      "lifecycle.source_failed",
    ]);
    const deployments = Object.fromEntries(
      (operation("/v1/deployments", "get").parameters as Json[]).map(resolve).map((p) => [p.name, p.schema]),
    );
    expect(deployments.has_pricing).toMatchObject({ type: "boolean" });

    const pathParam = (operation("/v1/deployments/{deploymentId}", "get").parameters as Json[])
      .map(resolve)
      .find((p) => p.in === "path");
    expect(pathParam).toMatchObject({ name: "deploymentId", required: true });
  });

  it("each endpoint documents its error responses as application/problem+json with the matching status and code", () => {
    for (const [path, method, statuses] of EXPECTED_ERRORS) {
      const responses = operation(path, method).responses as Json;
      for (const status of statuses) {
        const response = responses[String(status)];
        expect(response, `${method.toUpperCase()} ${path} documents ${status}`).toBeDefined();
        const resolved = resolve(response);
        const schema = resolved.content?.["application/problem+json"]?.schema;
        expect(schema, `${path} ${status} is problem+json`).toBeDefined();
        expect(schema.allOf[0]).toEqual({ $ref: "#/components/schemas/Problem" });
        expect(schema.allOf[1].properties.status).toEqual({ const: status });
        expect(resolved.headers["x-request-id"]).toBeDefined();
      }
    }
    const codeOf = (name: string) =>
      doc.components.responses[name].content["application/problem+json"].schema;
    expect(codeOf("InvalidParameter").allOf[1].properties.code).toEqual({ const: "invalid_parameter" });
    expect(codeOf("InvalidBody").allOf[1].properties.code.enum).toContain("invalid_body");
    expect(codeOf("NotPriceable").allOf[1].properties.code).toEqual({ const: "not_priceable" });
  });

  it("every problem code of the Problem schema is documented by some error response", () => {
    const documented = new Set<string>();
    for (const response of Object.values(doc.components.responses as Json)) {
      const code = (response as Json).content?.["application/problem+json"]?.schema.allOf[1].properties.code;
      if (code?.const) documented.add(code.const);
      for (const value of code?.enum ?? []) documented.add(value);
    }
    expect([...documented].sort()).toEqual([...ProblemCode.options].sort());
    expect(doc.components.schemas.Problem.required).toEqual([
      "type",
      "title",
      "status",
      "detail",
      "code",
      "request_id",
    ]);
  });

  it("responses carry the headers of spec 4.6 and docs/decisions.md", () => {
    const headerNames = (response: Json) => Object.keys(resolve(response).headers ?? {});
    for (const path of GETS) {
      const responses = operation(path, "get").responses as Json;
      for (const status of ["200", "304"])
        expect(headerNames(responses[status])).toEqual(
          expect.arrayContaining([
            "x-request-id",
            "x-svc-catalog-release",
            "ETag",
            "Cache-Control",
            "x-ratelimit-limit",
            "x-ratelimit-remaining",
            "x-ratelimit-reset",
          ]),
        );
      expect(resolve(responses["304"]).content).toBeUndefined();
    }
    for (const path of POSTS)
      expect(headerNames((operation(path, "post").responses as Json)["200"])).toEqual(
        expect.arrayContaining(["x-request-id", "x-svc-catalog-release", "ETag", "x-ratelimit-remaining"]),
      );
    const responses = doc.components.responses as Json;
    expect(headerNames(responses.Unauthorized)).toContain("WWW-Authenticate");
    expect(headerNames(responses.MethodNotAllowed)).toContain("Allow");
    expect(headerNames(responses.QuotaExhausted)).toEqual(
      expect.arrayContaining(["Retry-After", "x-ratelimit-remaining", "Cache-Control"]),
    );
    expect(doc.components.headers["x-svc-catalog-release"].schema.pattern).toBeDefined();
    expect(doc.components.headers["Retry-After"].schema).toMatchObject({ type: "integer" });
  });

  it("the Deployment schema requires exactly the fields of the spec's table, with nullable limits and rate card", () => {
    const deployment = doc.components.schemas.Deployment as Json;
    const specFields = [
      "id",
      "model_id",
      "provider_id",
      "provider_model_id",
      "api_surface",
      "mode",
      "region",
      "status",
      "lifecycle",
      "context_tokens",
      "max_output_tokens",
      "capabilities",
      "rate_card",
      "evidence_urls",
      "provenance",
    ];
    expect([...deployment.required].sort()).toEqual([...specFields].sort());
    expect(Object.keys(deployment.properties).sort()).toEqual([...specFields].sort());
    const allowsNull = (schema: Json) =>
      schema.type === "null" ||
      (Array.isArray(schema.type) && schema.type.includes("null")) ||
      (schema.anyOf ?? []).some((branch: Json) => branch.type === "null");
    for (const field of ["context_tokens", "max_output_tokens", "rate_card"])
      expect(allowsNull(deployment.properties[field]), field).toBe(true);
    expect(deployment.properties.lifecycle).toEqual({ $ref: "#/components/schemas/Lifecycle" });
    expect(doc.components.schemas.Lifecycle.required).toEqual([
      "status",
      "announced_at",
      "deprecation",
      "end_of_life",
      "replacement_ids",
      "coverage",
      "last_changed_at",
    ]);
  });

  it("request bodies are documented as input types: usage counts may be omitted (absent means 0)", () => {
    const body = resolve(operation("/v1/deployments/compare", "post").requestBody).content[
      "application/json"
    ];
    expect(body.schema).toEqual({ $ref: "#/components/schemas/CompareRequest" });
    const compare = doc.components.schemas.CompareRequest as Json;
    expect(compare.required).toEqual(["deployment_ids", "usage"]);
    expect(compare.additionalProperties).toBe(false);
    expect(compare.properties.deployment_ids).toMatchObject({ minItems: 1, maxItems: 100 });
    const usage = doc.components.schemas.Usage as Json;
    expect(usage.required).toBeUndefined();
    expect(usage.properties.output_tokens).toMatchObject({ type: "integer", minimum: 0, default: 0 });
    const calculate = operation("/v1/pricing/calculate", "post");
    expect(resolve(calculate.requestBody).content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/CalculateRequest",
    });
    const pricing = doc.components.schemas.Pricing as Json;
    expect(pricing.properties.total_usd.pattern).toBe("^[0-9]+\\.[0-9]{6}$");
  });

  it("`catalog openapi --out FILE` writes exactly the generated bytes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openapi-"));
    try {
      const out = join(dir, "openapi.json");
      const program = new Command().exitOverride();
      registerOpenapi(program);
      const stderr = process.stderr.write;
      process.stderr.write = (() => true) as typeof process.stderr.write;
      try {
        await program.parseAsync(["node", "catalog", "openapi", "--out", out]);
      } finally {
        process.stderr.write = stderr;
      }
      expect(await readFile(out, "utf8")).toBe(generated);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
