// Second-opinion validator for the contract tests: ajv (JSON Schema 2020-12, strict mode).
//
// Usage: node tests/contracts/ajv_verdicts.mjs <schema-dir> < cases.json
//   cases.json: [{"contract": "<stem>", "instance": <any JSON>}, ...]
// Prints: [{"valid": true|false, "errors": [<instancePath> <message>, ...]}, ...]
// Exit status 2 when a schema does not compile in strict mode (the message names it).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

const dir = process.argv[2];
const ajv = new Ajv2020({ strict: true, allErrors: true });
const ids = {};
for (const name of readdirSync(dir).filter((n) => n.endsWith(".schema.json")).sort()) {
  const schema = JSON.parse(readFileSync(join(dir, name), "utf8"));
  ajv.addSchema(schema);
  ids[name.slice(0, -".schema.json".length)] = schema.$id;
}
const validators = {};
for (const [stem, id] of Object.entries(ids)) {
  try {
    validators[stem] = ajv.getSchema(id);
  } catch (error) {
    process.stderr.write(`ajv strict mode rejects ${stem}.schema.json: ${error.message}\n`);
    process.exit(2);
  }
}
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map(({ contract, instance }) => {
  const validate = validators[contract];
  const valid = validate(instance);
  return { valid, errors: valid ? [] : validate.errors.map((e) => `${e.instancePath} ${e.message}`) };
});
process.stdout.write(JSON.stringify(out));
