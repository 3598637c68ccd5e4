/** Shared package descriptions for the daml-lf tests. */
import { DamlLfError, type DamlLfErrorCode, type PackageDescription, type Type } from '../../../src/daml-lf/index.js';

export const prim = (p: Extract<Type, { kind: 'prim' }>['prim'], ...args: Type[]): Type => ({ kind: 'prim', prim: p, args });
export const self = (module: string, name: string, ...args: Type[]): Type => ({ kind: 'con', packageId: 'self', module, name, args });
export const nat = (value: number): Type => ({ kind: 'nat', value });
export const PARTY = prim('Party');
export const TEXT = prim('Text');
export const INT64 = prim('Int64');
export const numeric = (scale: number): Type => prim('Numeric', nat(scale));
export const optional = (t: Type): Type => prim('Optional', t);
export const list = (t: Type): Type => prim('List', t);
export const contractId = (t: Type): Type => prim('ContractId', t);

/** A small "Iou" package: records with Numeric/Optional/List/ContractId fields, a key, choices, an interface. */
export function iouPackage(overrides: Partial<PackageDescription> = {}): PackageDescription {
  return {
    name: 'iou-model',
    version: '1.0.0',
    modules: [
      {
        name: 'Iou.Holding',
        interfaces: [
          {
            name: 'Holding',
            viewFields: [
              { name: 'owner', type: PARTY },
              { name: 'amount', type: numeric(10) },
            ],
            choices: [{ name: 'Holding_Describe', consuming: false, argFields: [], returnType: TEXT }],
            methods: [{ name: 'describe', type: TEXT }],
          },
        ],
      },
      {
        name: 'Iou.Main',
        dataTypes: [
          { kind: 'enum', name: 'Currency', constructors: ['USD', 'EUR', 'CHF'] },
          {
            kind: 'variant',
            name: 'Settlement',
            constructors: [
              { name: 'Cash', type: numeric(10) },
              { name: 'Delivery', type: contractId(self('Iou.Main', 'Iou')) },
            ],
          },
          {
            kind: 'record',
            name: 'Pair',
            params: ['a', 'b'],
            fields: [
              { name: 'fst', type: { kind: 'var', name: 'a', args: [] } },
              { name: 'snd', type: { kind: 'var', name: 'b', args: [] } },
            ],
          },
        ],
        templates: [
          {
            name: 'Iou',
            fields: [
              { name: 'issuer', type: PARTY },
              { name: 'owner', type: PARTY },
              { name: 'amount', type: numeric(10) },
              { name: 'currency', type: self('Iou.Main', 'Currency') },
              { name: 'observers', type: list(PARTY) },
              { name: 'note', type: optional(TEXT) },
              { name: 'previous', type: optional(contractId(self('Iou.Main', 'Iou'))) },
            ],
            key: { kind: 'prim', prim: 'Party', args: [] },
            implements: ['Iou.Holding:Holding'],
            choices: [
              { name: 'Transfer', argFields: [{ name: 'newOwner', type: PARTY }], returnType: contractId(self('Iou.Main', 'Iou')) },
              {
                name: 'Split',
                argFields: [{ name: 'splitAmount', type: numeric(10) }],
                returnType: self('Iou.Main', 'Pair', contractId(self('Iou.Main', 'Iou')), contractId(self('Iou.Main', 'Iou'))),
              },
              { name: 'Swap', argType: self('Iou.Main', 'Pair', PARTY, INT64), returnType: prim('Unit') },
              { name: 'Archive', argFields: [], returnType: prim('Unit') },
              { name: 'Peek', consuming: false, argFields: [], returnType: prim('TextMap', numeric(10)) },
            ],
          },
        ],
        exceptions: ['InsufficientFunds'],
      },
    ],
    ...overrides,
  };
}

/** The DamlLfError code `f` throws, or "no error". */
export function codeOf(f: () => unknown): DamlLfErrorCode | 'no error' {
  try {
    f();
  } catch (e) {
    if (e instanceof DamlLfError) return e.code;
    throw e;
  }
  return 'no error';
}
