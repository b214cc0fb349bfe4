/**
 * Reads a TypeScript module whose only content is data: `import` lines, then
 * `export default <object literal> [as const] [satisfies Type][;]`. Nothing is executed: the
 * literal is tokenized and read by a small recursive-descent reader that knows strings (single,
 * double and template quotes without `${}`), numbers (kept as their source text so prices stay
 * exact), true / false / null / undefined, arrays, objects with identifier or string keys and
 * trailing commas, and arrow functions, which are skipped as one balanced expression and read
 * as an opaque `TsFunction` (Mistral's `describe: (l) => ({ ... })` holds localized prose, not
 * data). Anything else (spreads, shorthand properties, computed keys, identifiers used as
 * values, `${}` interpolation, a second statement) is an error naming the line: a file whose
 * shape changed must fail loudly, never read as something it is not.
 */

/** A numeric literal as written ("0.4", "2.0", "-1"): exact, for decimal money arithmetic. */
export class TsNumber {
  constructor(readonly raw: string) {}
  get value(): number {
    return Number(this.raw);
  }
}

/** An arrow function in the literal; its body is not read. */
export class TsFunction {
  readonly kind = "function";
}

export type TsValue =
  | string
  | boolean
  | null
  | undefined
  | TsNumber
  | TsFunction
  | TsValue[]
  | { [key: string]: TsValue };

type TokenKind = "punct" | "string" | "number" | "ident";
type Token =
  | { kind: Exclude<TokenKind, "string">; text: string; line: number }
  /** `value` is the decoded string; `text` its opening quote. */
  | { kind: "string"; text: string; value: string; line: number };

const PUNCT = ["=>", "{", "}", "[", "]", "(", ")", ",", ":", ";", ".", "-", "="];
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };

export class TsLiteralError extends Error {}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  // Typed on the variable so that a call narrows like a throw (`if (!p) fail(...)`).
  const fail: (message: string) => never = (message) => {
    throw new TsLiteralError(`line ${line}: ${message}`);
  };
  while (i < source.length) {
    const c = source.charAt(i);
    if (c === "\n") {
      line++;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (source.startsWith("//", i)) {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (source.startsWith("/*", i)) {
      const end = source.indexOf("*/", i + 2);
      if (end < 0) fail("unterminated comment");
      line += (source.slice(i, end).match(/\n/g) ?? []).length;
      i = end + 2;
    } else if (c === "'" || c === '"' || c === "`") {
      const start = line;
      let value = "";
      i++;
      for (;;) {
        if (i >= source.length) fail("unterminated string");
        const d = source.charAt(i);
        if (d === c) break;
        if (c === "`" && d === "$" && source[i + 1] === "{") fail("template interpolation is not data");
        if (d === "\n") {
          if (c !== "`") fail("line break in a string");
          line++;
        }
        if (d === "\\") {
          const e = source[i + 1] ?? "";
          if (e === "u") {
            const hex = /^[0-9a-fA-F]{4}/.exec(source.slice(i + 2));
            if (!hex) fail("bad \\u escape");
            value += String.fromCharCode(Number.parseInt(hex[0], 16));
            i += 6;
            continue;
          }
          if (e === "\n") {
            line++;
            i += 2;
            continue;
          }
          value += ESCAPES[e] ?? e;
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      i++;
      tokens.push({ kind: "string", text: c, value, line: start });
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(source[i + 1] ?? ""))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i)) as RegExpExecArray;
      if (/^[A-Za-z_$0-9]/.test(source.slice(i + m[0].length, i + m[0].length + 1)))
        fail(`"${source.slice(i, i + m[0].length + 1)}" is not a decimal number`);
      tokens.push({ kind: "number", text: m[0], line });
      i += m[0].length;
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(source.slice(i)) as RegExpExecArray;
      tokens.push({ kind: "ident", text: m[0], line });
      i += m[0].length;
    } else {
      const p = PUNCT.find((q) => source.startsWith(q, i));
      if (!p) fail(`unexpected character "${c}"`);
      tokens.push({ kind: "punct", text: p, line });
      i += p.length;
    }
  }
  return tokens;
}

class Reader {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }
  done(): boolean {
    return this.pos >= this.tokens.length;
  }
  fail(message: string): never {
    const t = this.peek() ?? this.tokens[this.tokens.length - 1];
    throw new TsLiteralError(`line ${t?.line ?? 1}: ${message}`);
  }
  next(): Token {
    const t = this.peek();
    if (!t) this.fail("unexpected end of file");
    this.pos++;
    return t;
  }
  is(text: string, kind: TokenKind = "punct"): boolean {
    const t = this.peek();
    return t !== undefined && t.kind === kind && t.text === text;
  }
  expect(text: string, kind: TokenKind = "punct"): void {
    if (!this.is(text, kind)) this.fail(`expected "${text}", found "${this.peek()?.text ?? "end of file"}"`);
    this.pos++;
  }

  /** `import ... from '...' [;]` statements. */
  imports(): void {
    while (this.is("import", "ident")) {
      this.next();
      while (!this.is("from", "ident")) {
        const t = this.next();
        if (t.kind === "punct" && !["{", "}", ","].includes(t.text))
          this.fail(`unexpected "${t.text}" in import`);
      }
      this.next();
      if (this.next().kind !== "string") this.fail("import without a module name");
      if (this.is(";")) this.next();
    }
  }

  value(): TsValue {
    const t = this.peek();
    if (!t) this.fail("expected a value");
    const token = t;
    if (token.kind === "string") {
      this.next();
      return token.value;
    }
    if (token.kind === "number") {
      this.next();
      return new TsNumber(token.text);
    }
    if (token.kind === "punct" && token.text === "-" && this.peek(1)?.kind === "number") {
      this.next();
      return new TsNumber(`-${this.next().text}`);
    }
    if (token.kind === "ident") {
      const literals: Record<string, TsValue> = {
        true: true,
        false: false,
        null: null,
        undefined: undefined,
      };
      if (token.text in literals) {
        this.next();
        return literals[token.text];
      }
      if (this.peek(1)?.text === "=>") return this.arrow();
      this.fail(`"${token.text}" is code, not data`);
    }
    if (token.text === "[") return this.array();
    if (token.text === "{") return this.object();
    if (token.text === "(") return this.arrow();
    return this.fail(`unexpected "${token.text}"`);
  }

  private array(): TsValue[] {
    this.expect("[");
    const items: TsValue[] = [];
    while (!this.is("]")) {
      items.push(this.value());
      if (!this.is("]")) this.expect(",");
    }
    this.expect("]");
    return items;
  }

  private object(): { [key: string]: TsValue } {
    this.expect("{");
    const out: { [key: string]: TsValue } = Object.create(null);
    while (!this.is("}")) {
      const key = this.next();
      if (key.kind !== "ident" && key.kind !== "string") this.fail(`"${key.text}" is not a property name`);
      const name = key.kind === "string" ? key.value : key.text;
      if (Object.hasOwn(out, name)) this.fail(`property "${name}" is given twice`);
      this.expect(":");
      out[name] = this.value();
      if (!this.is("}")) this.expect(",");
    }
    this.expect("}");
    return out;
  }

  /** `(params) => body` or `x => body`: the body is skipped as one balanced expression. */
  private arrow(): TsFunction {
    if (this.is("(")) this.balanced();
    else this.next();
    this.expect("=>");
    if (this.is("(") || this.is("{") || this.is("[")) this.balanced();
    else this.fail("an arrow function body must be bracketed");
    return new TsFunction();
  }

  private balanced(): void {
    const pairs: Record<string, string> = { "(": ")", "{": "}", "[": "]" };
    const stack: string[] = [];
    do {
      const t = this.next();
      if (t.kind !== "punct") continue;
      const closer = pairs[t.text];
      if (closer !== undefined) stack.push(closer);
      else if (t.text === ")" || t.text === "}" || t.text === "]") {
        if (stack.pop() !== t.text) this.fail(`unbalanced "${t.text}"`);
      }
    } while (stack.length > 0);
  }
}

/** The value of `export default` in a data-only TypeScript module. Throws TsLiteralError. */
export function readDefaultExport(source: string): TsValue {
  const reader = new Reader(tokenize(source));
  reader.imports();
  reader.expect("export", "ident");
  reader.expect("default", "ident");
  const value = reader.value();
  if (reader.is("as", "ident")) {
    reader.next();
    reader.expect("const", "ident");
  }
  if (reader.is("satisfies", "ident")) {
    reader.next();
    if (reader.next().kind !== "ident") reader.fail("satisfies needs a type name");
  }
  if (reader.is(";")) reader.next();
  if (!reader.done()) reader.fail("more than one statement after export default");
  return value;
}
