/** Validates values against component schemas of the reference JSON API OpenAPI spec (ajv). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';

const specPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/reference/canton-json-api/openapi.yaml');
let ajv: Ajv | undefined;

export function assertMatchesSchema(name: string, value: unknown): void {
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true });
    for (const f of ['int32', 'int64', 'double', 'float', 'binary', 'byte', 'date-time']) ajv.addFormat(f, true);
    const doc = parse(readFileSync(specPath, 'utf8')) as { components: { schemas: unknown } };
    ajv.addSchema({ $id: 'openapi.json', components: { schemas: doc.components.schemas } });
  }
  const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
  if (!validate) throw new Error(`No schema ${name}`);
  if (!validate(value)) throw new Error(`${name} does not match the spec: ${JSON.stringify(validate.errors)}`);
}
