// Judge each line of a JSON Lines file against a JSON Schema (draft 2020-12) with ajv.
//
//   node verdicts.mjs SCHEMA.json CASES.jsonl
//
// Prints one JSON line per case, in order: {"valid": true} or {"valid": false, "errors": [...]},
// each error as "instancePath keyword". The Python test tests/test_schema_agreement.py writes
// the cases and compares these verdicts with campaign_rules.validate_create.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const [schemaPath, casesPath] = process.argv.slice(2);
if (!schemaPath || !casesPath) {
  process.stderr.write("usage: node verdicts.mjs SCHEMA.json CASES.jsonl\n");
  process.exit(2);
}

// strict: a keyword ajv does not know, or an ill-placed one, is an error, not a silent pass.
// strictTypes and strictRequired are off: they ask for a "type" and the "properties" beside
// every "required", also in the "if"/"then" branches, which JSON Schema does not need (a
// branch applies to the object whose type and members the enclosing schema fixes).
// allErrors: the errors help a reader of a disagreement; they do not change the verdict.
const ajv = new Ajv2020({
  strict: true,
  strictTypes: false,
  strictRequired: false,
  allErrors: true,
});
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));

const out = [];
for (const line of readFileSync(casesPath, "utf8").split("\n")) {
  if (line === "") continue;
  const valid = validate(JSON.parse(line));
  const verdict = valid
    ? { valid: true }
    : { valid: false, errors: validate.errors.map((e) => `${e.instancePath} ${e.keyword}`) };
  out.push(JSON.stringify(verdict));
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
