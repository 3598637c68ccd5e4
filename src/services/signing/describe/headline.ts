/**
 * The one-line description of a transaction no recogniser states: each root action with the top-level fields of its
 * argument (e.g. `Iou_Transfer on Demo.Iou:Iou 00ab12…: newOwner bob::1220abcd…wxyz`).
 */
import { shortParty } from '../../../common/ids.js';
import type { DescribedNode } from './describe-transaction.js';
import type { DValue } from './typed-value.js';

const shortCid = (c: string): string => (c.length > 14 ? `${c.slice(0, 10)}…` : c);
const qualified = (templateId: string | null): string => (templateId ? templateId.split(':').slice(1).join(':') : '(unknown template)');

/** A short text for a value shown inline (scalars, parties, numerics, constructors); null for structured values. */
function inline(v: DValue): string | null {
  switch (v.kind) {
    case 'scalar':
      return v.prim === 'Text' ? JSON.stringify(v.text.length > 40 ? `${v.text.slice(0, 40)}…` : v.text) : v.text;
    case 'numeric':
      // exact, trailing zeros dropped (42.5000000000 → 42.5)
      return v.value.includes('.') ? v.value.replace(/\.?0+$/, '') : v.value;
    case 'party':
      return shortParty(v.party);
    case 'contractId':
      return shortCid(v.contractId);
    case 'enum':
      return v.constructor;
    case 'optional':
      return v.value === null ? 'None' : inline(v.value);
    case 'variant':
      return v.value.kind === 'scalar' && v.value.prim === 'Unit' ? v.constructor : null;
    default:
      return null;
  }
}

function fieldsText(v: DValue | null, max = 4): string {
  if (v?.kind !== 'record') return '';
  const parts: string[] = [];
  for (const f of v.fields) {
    const t = inline(f.value);
    if (t !== null) parts.push(`${f.name} ${t}`);
    if (parts.length === max) break;
  }
  return parts.length > 0 ? `: ${parts.join(', ')}` : '';
}

export function genericHeadline(nodes: DescribedNode[]): string {
  const roots = nodes.filter((n) => n.depth === 0);
  const parts = roots.map((n) => {
    switch (n.kind) {
      case 'create':
        return `Create ${qualified(n.templateId)}${fieldsText(n.argument)}`;
      case 'exercise':
        return `${n.choice} on ${qualified(n.templateId)} ${shortCid(n.contractId ?? '')}${fieldsText(n.argument)}`;
      case 'fetch':
        return `Fetch ${qualified(n.templateId)} ${shortCid(n.contractId ?? '')}`;
      case 'rollback':
        return 'Rolled-back actions';
    }
  });
  return parts.join('; ');
}
