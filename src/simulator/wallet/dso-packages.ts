/**
 * Built-in stand-ins for the two Splice packages the scan proxy reports on besides `splice-amulet`:
 *
 * - `splice-dso-governance`: `Splice.DsoRules:DsoRules` (the DSO's governance rules: its SVs) and
 *   `Splice.DSO.SvState:SvNodeState` (one per SV). The simulator runs no SV network: its DSO is governed by a single
 *   SV whose party is the DSO party itself (`sv1`).
 * - `splice-amulet-name-service`: `Splice.Ans:AnsRules` (entry fee and lifetime) and `Splice.Ans:AnsEntry` (a name a
 *   user holds; created through the Ledger API by the user and the DSO).
 *
 * Field layouts are simplified (Splice's DsoRules carries the whole governance configuration). The validator app
 * creates the rules on first use (`scan-proxy-state.ts`).
 */
import type { PackageDef, TemplateDef } from '../packages/types.js';
import { int, numeric, parties, party, text, time } from './coin.js';
import { asText } from '../lf-text.js';

export const DSO_GOVERNANCE_PACKAGE = 'splice-dso-governance';
export const ANS_PACKAGE = 'splice-amulet-name-service';
export const DSO_QN = { rules: 'Splice.DsoRules:DsoRules', svState: 'Splice.DSO.SvState:SvNodeState' } as const;
export const ANS_QN = { rules: 'Splice.Ans:AnsRules', entry: 'Splice.Ans:AnsEntry' } as const;

const DsoRules: TemplateDef = {
  module: 'Splice.DsoRules',
  entity: 'DsoRules',
  fields: [
    { name: 'dso', type: party },
    { name: 'epoch', type: int },
    { name: 'svs', type: parties },
    { name: 'isDevNet', type: { kind: 'Bool' } },
  ],
  signatories: ['dso'],
  observers: [],
  implements: [],
  choices: [],
};

const SvNodeState: TemplateDef = {
  module: 'Splice.DSO.SvState',
  entity: 'SvNodeState',
  fields: [
    { name: 'dso', type: party },
    { name: 'sv', type: party },
    { name: 'svName', type: text },
  ],
  signatories: ['dso'],
  observers: [],
  implements: [],
  choices: [],
};

const AnsRules: TemplateDef = {
  module: 'Splice.Ans',
  entity: 'AnsRules',
  fields: [
    { name: 'dso', type: party },
    // USD per entry and renewal, and how long an entry lives (microseconds)
    { name: 'entryFee', type: numeric },
    { name: 'entryLifetimeMicros', type: int },
  ],
  signatories: ['dso'],
  observers: [],
  implements: [],
  choices: [],
};

const AnsEntry: TemplateDef = {
  module: 'Splice.Ans',
  entity: 'AnsEntry',
  fields: [
    { name: 'user', type: party },
    { name: 'dso', type: party },
    { name: 'name', type: text },
    { name: 'url', type: text },
    { name: 'description', type: text },
    { name: 'expiresAt', type: time },
  ],
  signatories: ['user', 'dso'],
  observers: [],
  ensureDescription: 'name ends with .unverified.ans',
  ensure: (a) => (/^[a-z0-9_-]+\.unverified\.ans$/.test(asText(a.name)) ? undefined : 'an ANS name is <label>.unverified.ans'),
  implements: [],
  choices: [],
};

export const dsoGovernancePackage: PackageDef = {
  name: DSO_GOVERNANCE_PACKAGE,
  version: '0.1.0',
  templates: [DsoRules, SvNodeState],
  interfaces: [],
};

export const ansPackage: PackageDef = { name: ANS_PACKAGE, version: '0.1.0', templates: [AnsRules, AnsEntry], interfaces: [] };
