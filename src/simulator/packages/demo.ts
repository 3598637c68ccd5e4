/** The `simulator-demo` package: Iou (+ split/merge/transfer), IouProposal workflow, keyed Account, Asset interface. */
import { formatDecimal, parseDecimal } from '../../common/decimal.js';
import type { LfValue } from '../model.js';
import type { FieldDef, LfRecord, PackageDef, TemplateDef } from './types.js';
import { asList, asText } from '../lf-text.js';

const party = { kind: 'Party' } as const;
const text = { kind: 'Text' } as const;
const numeric = { kind: 'Numeric', scale: 10 } as const;
const parties = { kind: 'List', elem: party } as const;
const unit = { kind: 'Unit' } as const;

/** A Numeric field as a scaled bigint; an absent Optional counts as zero. */
const num = (v: LfValue | undefined): bigint => (v === null || v === undefined ? 0n : (parseDecimal(asText(v), 10) ?? 0n));
const fmt = (v: bigint): string => formatDecimal(v, 10);
const str = (v: LfValue | undefined): string => asText(v);

const iouFields: FieldDef[] = [
  { name: 'issuer', type: party },
  { name: 'owner', type: party },
  { name: 'currency', type: text },
  { name: 'amount', type: numeric },
  { name: 'observers', type: parties },
];

const iouWith = (c: LfRecord, patch: LfRecord): LfRecord => ({ ...c, ...patch });

const Iou: TemplateDef = {
  module: 'Demo.Iou',
  entity: 'Iou',
  fields: iouFields,
  signatories: ['issuer'],
  observers: ['owner', 'observers'],
  ensureDescription: 'amount > 0 && currency /= ""',
  ensure: (a) => (num(a.amount) <= 0n ? 'amount must be positive' : str(a.currency) === '' ? 'currency must not be empty' : undefined),
  implements: [
    {
      interface: 'Demo.Asset:Asset',
      view: (c) => ({ owner: c.owner ?? null, description: `${str(c.amount)} ${str(c.currency)}`, amount: c.amount ?? null }),
    },
  ],
  choices: [
    {
      name: 'Iou_Transfer',
      consuming: true,
      argument: [{ name: 'newOwner', type: party }],
      returnType: { kind: 'ContractId', template: 'Demo.Iou:Iou' },
      controllers: [{ contract: 'owner' }],
      description: 'archive; create Iou with owner = newOwner, observers = []',
      body: (ctx) => ctx.create('Demo.Iou:Iou', iouWith(ctx.contract, { owner: ctx.arg.newOwner ?? null, observers: [] })),
    },
    {
      name: 'Iou_Split',
      consuming: true,
      argument: [{ name: 'splitAmount', type: numeric }],
      returnType: {
        kind: 'Record',
        name: 'Demo.Iou:SplitResult',
        fields: [
          { name: 'splitCid', type: { kind: 'ContractId', template: 'Demo.Iou:Iou' } },
          { name: 'restCid', type: { kind: 'ContractId', template: 'Demo.Iou:Iou' } },
        ],
      },
      controllers: [{ contract: 'owner' }],
      description: '0 < splitAmount < amount; archive; create splitAmount and amount - splitAmount',
      body: (ctx) => {
        const total = num(ctx.contract.amount);
        const split = num(ctx.arg.splitAmount);
        if (split <= 0n || split >= total) ctx.fail(`splitAmount must be > 0 and < ${fmt(total)}`);
        const splitCid = ctx.create('Demo.Iou:Iou', iouWith(ctx.contract, { amount: fmt(split) }));
        const restCid = ctx.create('Demo.Iou:Iou', iouWith(ctx.contract, { amount: fmt(total - split) }));
        return { splitCid, restCid };
      },
    },
    {
      name: 'Iou_Merge',
      consuming: true,
      argument: [{ name: 'otherCid', type: { kind: 'ContractId', template: 'Demo.Iou:Iou' } }],
      returnType: { kind: 'ContractId', template: 'Demo.Iou:Iou' },
      controllers: [{ contract: 'owner' }],
      description: 'other has same issuer/owner/currency; archive both; create the sum',
      body: (ctx) => {
        const otherCid = str(ctx.arg.otherCid);
        if (otherCid === ctx.self) ctx.fail('cannot merge an Iou with itself');
        const other = ctx.fetch(otherCid, 'Demo.Iou:Iou');
        for (const f of ['issuer', 'owner', 'currency']) if (other[f] !== ctx.contract[f]) ctx.fail(`cannot merge: ${f} differs`);
        ctx.exercise(otherCid, 'Archive', {});
        return ctx.create('Demo.Iou:Iou', iouWith(ctx.contract, { amount: fmt(num(ctx.contract.amount) + num(other.amount)) }));
      },
    },
    {
      name: 'Iou_AddObserver',
      consuming: true,
      argument: [{ name: 'newObserver', type: party }],
      returnType: { kind: 'ContractId', template: 'Demo.Iou:Iou' },
      controllers: [{ contract: 'owner' }],
      description: 'archive; recreate with newObserver added',
      body: (ctx) => {
        const obs = asList(ctx.contract.observers).map(asText);
        const n = str(ctx.arg.newObserver);
        return ctx.create('Demo.Iou:Iou', iouWith(ctx.contract, { observers: obs.includes(n) ? obs : [...obs, n] }));
      },
    },
    {
      name: 'Iou_Describe',
      consuming: false,
      argument: [],
      returnType: text,
      controllers: [{ contract: 'owner' }],
      description: 'non-consuming: returns "<amount> <currency> issued by <issuer>"',
      body: (ctx) => `${str(ctx.contract.amount)} ${str(ctx.contract.currency)} issued by ${str(ctx.contract.issuer)}`,
    },
  ],
};

const IouProposal: TemplateDef = {
  module: 'Demo.Iou',
  entity: 'IouProposal',
  fields: [
    { name: 'issuer', type: party },
    { name: 'owner', type: party },
    { name: 'currency', type: text },
    { name: 'amount', type: numeric },
  ],
  signatories: ['issuer'],
  observers: ['owner'],
  ensureDescription: 'amount > 0',
  ensure: (a) => (num(a.amount) <= 0n ? 'amount must be positive' : undefined),
  implements: [],
  choices: [
    {
      name: 'IouProposal_Accept',
      consuming: true,
      argument: [],
      returnType: { kind: 'ContractId', template: 'Demo.Iou:Iou' },
      controllers: [{ contract: 'owner' }],
      description: 'archive; create the Iou',
      body: (ctx) => ctx.create('Demo.Iou:Iou', { ...ctx.contract, observers: [] }),
    },
    {
      name: 'IouProposal_Reject',
      consuming: true,
      argument: [],
      returnType: unit,
      controllers: [{ contract: 'owner' }],
      description: 'archive',
      body: () => ({}),
    },
    {
      name: 'IouProposal_Withdraw',
      consuming: true,
      argument: [],
      returnType: unit,
      controllers: [{ contract: 'issuer' }],
      description: 'archive',
      body: () => ({}),
    },
  ],
};

const Account: TemplateDef = {
  module: 'Demo.Account',
  entity: 'Account',
  fields: [
    { name: 'bank', type: party },
    { name: 'holder', type: party },
    { name: 'accountId', type: text },
    { name: 'label', type: text },
  ],
  signatories: ['bank'],
  observers: ['holder'],
  key: { fields: ['bank', 'accountId'], maintainers: ['bank'] },
  ensureDescription: 'accountId /= ""',
  ensure: (a) => (str(a.accountId) === '' ? 'accountId must not be empty' : undefined),
  implements: [
    {
      interface: 'Demo.Asset:Asset',
      view: (c) => ({ owner: c.holder ?? null, description: `account ${str(c.accountId)} (${str(c.label)})`, amount: fmt(0n) }),
    },
  ],
  choices: [
    {
      name: 'Account_Relabel',
      consuming: true,
      argument: [{ name: 'newLabel', type: text }],
      returnType: { kind: 'ContractId', template: 'Demo.Account:Account' },
      controllers: [{ contract: 'bank' }],
      description: 'archive; recreate with label = newLabel',
      body: (ctx) => ctx.create('Demo.Account:Account', { ...ctx.contract, label: ctx.arg.newLabel ?? '' }),
    },
    {
      name: 'Account_Close',
      consuming: true,
      argument: [],
      returnType: unit,
      controllers: [{ contract: 'bank' }],
      description: 'archive',
      body: () => ({}),
    },
    {
      name: 'Account_Ping',
      consuming: false,
      argument: [{ name: 'message', type: text }],
      returnType: text,
      controllers: [{ contract: 'holder' }],
      description: 'non-consuming echo',
      body: (ctx) => `pong: ${str(ctx.arg.message)}`,
    },
  ],
};

export const demoPackage: PackageDef = {
  name: 'simulator-demo',
  version: '1.0.0',
  interfaces: [
    {
      module: 'Demo.Asset',
      entity: 'Asset',
      view: {
        name: 'Demo.Asset:AssetView',
        fields: [
          { name: 'owner', type: party },
          { name: 'description', type: text },
          { name: 'amount', type: numeric },
        ],
      },
      choices: [
        {
          name: 'Asset_Describe',
          consuming: false,
          argument: [{ name: 'viewer', type: party }],
          returnType: text,
          controllers: [{ argument: 'viewer' }],
          description: 'non-consuming, any viewer (e.g. with the contract disclosed): returns "<description> (<amount>) owned by <owner>"',
          // an interface choice's body sees the contract's view (its `contract` is the template's arguments)
          body: (ctx) => {
            const v = ctx.view ?? ctx.contract;
            return `${str(v.description)} (${str(v.amount)}) owned by ${str(v.owner)}`;
          },
        },
      ],
    },
  ],
  templates: [Iou, IouProposal, Account],
};
