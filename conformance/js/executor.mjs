// A conformance executor (protocol 1) on Node.js: ajv judges a creation body against the
// exported JSON Schema, and the schema's own annotations (D-schema-rules) name the rule of each
// error, its key, the key's status and the order the library reports them in.
//
//   npm ci --prefix conformance/js
//   node conformance/js/executor.mjs schema/campaign-create.rules.schema.json
//
// It reads one request a line on stdin and writes one answer a line on stdout. It is a proof of
// the kit, not a second product: what JSON Schema cannot say and what JSON.parse hides are its
// expected failures (conformance/js/expected-failures.txt, docs/conformance-scoreboard.md).
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import Ajv2020 from "ajv/dist/2020.js";

const RULES = "x-rules";
const VOCABULARY = [RULES, "x-rule-table", "x-key-statuses", "x-status-precedence"];

const [schemaPath] = process.argv.slice(2);
if (!schemaPath) {
  process.stderr.write("usage: node executor.mjs RULES-SCHEMA.json\n");
  process.exit(2);
}
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
if (!Array.isArray(schema["x-rule-table"])) {
  process.stderr.write(`${schemaPath} names no rules: give schema/campaign-create.rules.schema.json\n`);
  process.exit(2);
}
// As tests/ajv/verdicts.mjs reads the plain schema: strict, every error (each is a violation here);
// verbose, for the subschema of each error, whose annotation names its rule.
const ajv = new Ajv2020({
  strict: true,
  strictTypes: false,
  strictRequired: false,
  allErrors: true,
  verbose: true,
});
ajv.addVocabulary(VOCABULARY);
const validate = ajv.compile(schema);

const table = schema["x-rule-table"];
const orderOf = new Map(table.map(({ rule }, index) => [rule, index]));
const keyOf = new Map(table.map(({ rule, key }) => [rule, key]));
const statusOf = schema["x-key-statuses"];
const precedence = schema["x-status-precedence"];

// Keywords that refuse a value whole: the library reads it no further (a value of another type,
// an object or an array past its bound), so no error under it is reported.
const STOPS_READING = new Set(["type", "maxProperties", "maxItems"]);
// The byte order marks of UTF-8, UTF-16 big-endian and little-endian (RFC 8259 section 8.1).
const MARKS = [[0xef, 0xbb, 0xbf], [0xfe, 0xff], [0xff, 0xfe]];

function answer(request) {
  const { id, kind } = request;
  if (kind === "describe") {
    return { id, protocol: 1, executor: "ajv JSON Schema (conformance/js)", ruleset: null, kinds: ["create"] };
  }
  if (kind !== "create") {
    return { id, unsupported: `judges creation bodies only: the schema is the creation input's, not ${kind}'s` };
  }
  if (request.directory != null) {
    return { id, unsupported: "the look-up rules need the service's records, which a schema has not" };
  }
  const reading = read(request.body);
  const violations = "refused" in reading ? [reading.refused] : judge(reading.value);
  return outcome(id, violations);
}

// The body's bytes as a JSON value, or the body rule that refuses them, in the table's order.
function read(body) {
  const bytes = "base64" in body ? Buffer.from(body.base64, "base64") : Buffer.from(body.text, "utf8");
  if (MARKS.some((mark) => mark.every((byte, index) => bytes[index] === byte))) {
    return refused("body.has_no_byte_order_mark", "must not start with a byte order mark");
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return refused("body.is_utf8", "must be UTF-8 text");
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return refused("body.is_json", `must be JSON: ${error.message}`);
  }
}

function refused(rule, says) {
  return { refused: violation(rule, "", `the request body ${says}`) };
}

function judge(value) {
  if (validate(value)) return [];
  const seen = new Set();
  const found = validate.errors
    .filter((error) => error.keyword !== "if") // the condition, not a rule
    .map((error) => violationOf(error, value))
    .filter((v) => !seen.has(`${v.rule} ${v.pointer}`) && seen.add(`${v.rule} ${v.pointer}`));
  // A value one rule refuses is that rule's (the rows' gates): a later rule does not judge it,
  // but a rule on its presence (`not`); and what a value refused whole holds is not read.
  const kept = found.filter(
    (v) =>
      !found.some(
        (s) =>
          (s.pointer === v.pointer && orderOf.get(s.rule) < orderOf.get(v.rule) && v.keyword !== "not") ||
          (STOPS_READING.has(s.keyword) && v.pointer.startsWith(`${s.pointer}/`)),
      ),
  );
  // Table order; within a rule, ajv's, which follows the schema as the library follows its
  // shapes (a sort is stable).
  kept.sort((a, b) => orderOf.get(a.rule) - orderOf.get(b.rule));
  return kept.map(({ keyword, ...v }) => v);
}

// One ajv error as a violation of the rule the schema names for it.
function violationOf(error, value) {
  const member = error.params.additionalProperty ?? error.params.missingProperty;
  let pointer = member === undefined ? error.instancePath : `${error.instancePath}/${escaped(member)}`;
  if (error.keyword === "uniqueItems") pointer += `/${Math.max(error.params.i, error.params.j)}`;
  const rule = error.parentSchema[RULES]?.[error.keyword] ?? `unannotated:${error.schemaPath}`;
  const v = violation(rule, pointer, `${fieldOf(value, pointer) ?? "the request body"} ${error.message}`, value);
  return { ...v, keyword: error.keyword };
}

function violation(rule, pointer, message, value) {
  const field = value === undefined ? null : fieldOf(value, pointer);
  return { rule, key: keyOf.get(rule) ?? null, field, pointer, line: null, column: null, message };
}

// The library's field path of a pointer: names joined by `.`, an array's items as `[index]`.
function fieldOf(value, pointer) {
  if (pointer === "") return null;
  let field = "";
  let node = value;
  for (const token of pointer.split("/").slice(1).map(unescaped)) {
    field += Array.isArray(node) ? `[${token}]` : field === "" ? token : `.${token}`;
    node = node !== null && typeof node === "object" ? node[token] : undefined;
  }
  return field;
}

function outcome(id, violations) {
  if (violations.length === 0) return { id, ok: true, status: null, violations, envelope: null };
  // The primary violation (D-statuses): the first of the status ranked highest.
  const rank = (v) => {
    const status = statusOf[v.key];
    const ranked = precedence.indexOf(status);
    return ranked === -1 ? precedence.length * 1000 + status : ranked * 1000;
  };
  const primary = violations.reduce((best, v) => (rank(v) < rank(best) ? v : best));
  const envelope = { success: false, error: primary.key, message: primary.message };
  if (primary.field !== null) envelope.field = primary.field;
  return { id, ok: false, status: statusOf[primary.key], violations, envelope };
}

const escaped = (name) => name.replaceAll("~", "~0").replaceAll("/", "~1");
const unescaped = (token) => token.replaceAll("~1", "/").replaceAll("~0", "~");

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line === "") continue;
  process.stdout.write(`${JSON.stringify(answer(JSON.parse(line)))}\n`);
}
