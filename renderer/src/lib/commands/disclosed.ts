/**
 * Disclosed contracts as a stakeholder shares them: the Ledger API's `DisclosedContract` (camelCase) or Splice Scan's
 * `{ contract_id, template_id, created_event_blob }` (snake_case, sometimes wrapped as `{ contract: … , domain_id }`).
 * Parsed here only to fill the form; the IPC contract validates what is submitted.
 */

export interface DisclosedRow {
  contractId: string;
  templateId: string;
  createdEventBlob: string;
  synchronizerId: string;
}

const str = (o: Record<string, unknown>, ...keys: string[]): string => {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string') return v.trim();
  }
  return '';
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseDisclosed(text: string): { row: DisclosedRow } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: 'Not JSON: paste the disclosed contract object the stakeholder shared' };
  }
  if (!isObject(json)) return { error: 'Expected one JSON object with contractId, templateId and createdEventBlob' };
  const inner = isObject(json.contract) ? json.contract : json;
  const row: DisclosedRow = {
    contractId: str(inner, 'contractId', 'contract_id'),
    templateId: str(inner, 'templateId', 'template_id'),
    createdEventBlob: str(inner, 'createdEventBlob', 'created_event_blob'),
    synchronizerId: str(json, 'synchronizerId', 'synchronizer_id', 'domain_id') || str(inner, 'synchronizerId', 'synchronizer_id'),
  };
  const missing = (['contractId', 'templateId', 'createdEventBlob'] as const).filter((k) => row[k] === '');
  if (missing.length > 0) return { error: `The JSON lacks ${missing.join(', ')}` };
  return { row };
}
