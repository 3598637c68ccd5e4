/**
 * Real PreparedTransaction and topology fixtures, built with the official protobuf message types
 * (@canton-network/core-ledger-proto) and hashed with the official library (core-tx-visualizer).
 */
import { randomBytes } from 'node:crypto';
import {
  CryptoKeyFormat,
  Enums_ParticipantPermission,
  Enums_TopologyChangeOp,
  PreparedTransaction,
  SigningKeyScheme,
  SigningKeySpec,
  SigningKeyUsage,
  TopologyTransaction,
  type DamlTransaction_Node,
  type Identifier,
  type Value,
} from '@canton-network/core-ledger-proto';
import { computeMultiHashForTopology, computeSha256CantonHash, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { encodeArchive, type Type } from '../../../src/daml-lf/index.js';
import { must } from '../../support/must.js';

export const DSO = 'DSO::1220' + 'd5'.repeat(32);
export const VALIDATOR = 'validator-1::1220' + 'a1'.repeat(32);
export const SYNC = 'global-domain::1220' + 'be'.repeat(32);
export const PARTICIPANT = 'PAR::participant1::1220' + 'c3'.repeat(32);

// ---- Daml values --------------------------------------------------------------------------------------------
export const party = (p: string): Value => ({ sum: { oneofKind: 'party', party: p } });
export const numeric = (n: string): Value => ({ sum: { oneofKind: 'numeric', numeric: n } });
export const text = (t: string): Value => ({ sum: { oneofKind: 'text', text: t } });
export const int64 = (i: string): Value => ({ sum: { oneofKind: 'int64', int64: i } });
export const timestamp = (d: Date): Value => ({ sum: { oneofKind: 'timestamp', timestamp: String(BigInt(d.getTime()) * 1000n) } });
export const cid = (c: string): Value => ({ sum: { oneofKind: 'contractId', contractId: c } });
export const list = (elements: Value[]): Value => ({ sum: { oneofKind: 'list', list: { elements } } });
export const some = (value: Value): Value => ({ sum: { oneofKind: 'optional', optional: { value } } });
export const none = (): Value => ({ sum: { oneofKind: 'optional', optional: {} } });
export const textMap = (entries: Record<string, Value>): Value => ({
  sum: { oneofKind: 'textMap', textMap: { entries: Object.entries(entries).map(([key, value]) => ({ key, value })) } },
});
export const record = (fields: Record<string, Value>, recordId?: Identifier): Value => ({
  sum: {
    oneofKind: 'record',
    record: { ...(recordId ? { recordId } : {}), fields: Object.entries(fields).map(([label, value]) => ({ label, value })) },
  },
});

export const id = (packageId: string, moduleName: string, entityName: string): Identifier => ({ packageId, moduleName, entityName });
const SPLICE_AMULET_PKG = 'fb10433a48c24f30076a7aee03a3e314b7ab02fe9a22e2069e3af92d2b6ac88a'; // splice-amulet 0.1.22
const TOKEN_API_PKG = '55ba4deb0ad4662c4168b39859738a0e91388d252286480c7331b3f71a517281';
const WALLET_PKG = '727c0fb9711d59b506fbb3cff2342e55eb583bb88682a946220525c304feca4a'; // splice-wallet 0.1.23
export const contractId = (): string => '00' + randomBytes(32).toString('hex') + 'ca101220' + randomBytes(32).toString('hex');
const seed = () => new Uint8Array(randomBytes(32));

function create(
  nodeId: string,
  packageName: string,
  templateId: Identifier,
  argument: Value,
  signatories: string[],
  stakeholders: string[],
  contract = contractId(),
): DamlTransaction_Node {
  return {
    nodeId,
    versionedNode: {
      oneofKind: 'v1',
      v1: {
        nodeType: {
          oneofKind: 'create',
          create: { lfVersion: '2.1', contractId: contract, packageName, templateId, argument, signatories, stakeholders },
        },
      },
    },
  };
}
function exercise(
  nodeId: string,
  e: {
    packageName: string;
    templateId: Identifier;
    interfaceId?: Identifier;
    choiceId: string;
    chosenValue: Value;
    actingParties: string[];
    signatories: string[];
    stakeholders: string[];
    consuming: boolean;
    children: string[];
    exerciseResult?: Value;
    contractId?: string;
  },
): DamlTransaction_Node {
  return {
    nodeId,
    versionedNode: {
      oneofKind: 'v1',
      v1: {
        nodeType: {
          oneofKind: 'exercise',
          exercise: {
            lfVersion: '2.1',
            contractId: e.contractId ?? contractId(),
            packageName: e.packageName,
            templateId: e.templateId,
            ...(e.interfaceId ? { interfaceId: e.interfaceId } : {}),
            signatories: e.signatories,
            stakeholders: e.stakeholders,
            actingParties: e.actingParties,
            choiceId: e.choiceId,
            chosenValue: e.chosenValue,
            consuming: e.consuming,
            children: e.children,
            ...(e.exerciseResult ? { exerciseResult: e.exerciseResult } : {}),
            choiceObservers: [],
          },
        },
      },
    },
  };
}

const AMULET = id(SPLICE_AMULET_PKG, 'Splice.Amulet', 'Amulet');
const amuletArg = (owner: string, amount: string) =>
  record({
    dso: party(DSO),
    owner: party(owner),
    amount: record({
      initialAmount: numeric(amount),
      createdAt: record({ number: int64('4242') }),
      ratePerRound: record({ rate: numeric('0.0000190259') }),
    }),
  });

function prepared(
  actAs: string[],
  roots: string[],
  nodes: DamlTransaction_Node[],
  inputs: Array<{ owner: string; amount: string; contract: string }> = [],
): PreparedTransaction {
  const now = BigInt(Date.now()) * 1000n;
  return PreparedTransaction.create({
    transaction: {
      version: '2.1',
      roots,
      nodes,
      nodeSeeds: nodes
        .filter((n) => n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind !== 'fetch')
        .map((n) => ({ nodeId: Number(n.nodeId), seed: seed() })),
    },
    metadata: {
      submitterInfo: { actAs, commandId: `cmd-${randomBytes(4).toString('hex')}` },
      synchronizerId: SYNC,
      mediatorGroup: 0,
      transactionUuid: randomBytes(16).toString('hex'),
      preparationTime: now,
      inputContracts: inputs.map((i) => ({
        contract: {
          oneofKind: 'v1' as const,
          v1: {
            lfVersion: '2.1',
            contractId: i.contract,
            packageName: 'splice-amulet',
            templateId: AMULET,
            argument: amuletArg(i.owner, i.amount),
            signatories: [DSO, i.owner],
            stakeholders: [DSO, i.owner],
          },
        },
        createdAt: now - 60_000_000n,
        eventBlob: new Uint8Array(),
      })),
      globalKeyMapping: [],
      maxLedgerEffectiveTime: now + 600_000_000n,
    },
  });
}

/** Token-standard transfer (TransferFactory_Transfer on the Amulet factory), with its archive/creates below. */
export function tokenTransfer(o: {
  sender: string;
  receiver: string;
  amount: string;
  memo?: string;
  instrumentId?: string;
  admin?: string;
}): PreparedTransaction {
  const input = contractId();
  const factory = contractId();
  const transfer = record(
    {
      sender: party(o.sender),
      receiver: party(o.receiver),
      amount: numeric(o.amount),
      instrumentId: record({ admin: party(o.admin ?? DSO), id: text(o.instrumentId ?? 'Amulet') }),
      requestedAt: timestamp(new Date(Date.now() - 1000)),
      executeBefore: timestamp(new Date(Date.now() + 3_600_000)),
      inputHoldingCids: list([cid(input)]),
      meta: record({ values: textMap(o.memo ? { 'splice.lfdecentralizedtrust.org/reason': text(o.memo) } : {}) }),
    },
    id(TOKEN_API_PKG, 'Splice.Api.Token.TransferInstructionV1', 'Transfer'),
  );
  const args = record(
    {
      expectedAdmin: party(o.admin ?? DSO),
      transfer,
      extraArgs: record({ context: record({ values: textMap({}) }), meta: record({ values: textMap({}) }) }),
    },
    id(TOKEN_API_PKG, 'Splice.Api.Token.TransferInstructionV1', 'TransferFactory_Transfer'),
  );
  const nodes = [
    exercise('0', {
      packageName: 'splice-amulet',
      templateId: id(SPLICE_AMULET_PKG, 'Splice.ExternalPartyAmuletRules', 'ExternalPartyAmuletRules'),
      interfaceId: id(TOKEN_API_PKG, 'Splice.Api.Token.TransferInstructionV1', 'TransferFactory'),
      choiceId: 'TransferFactory_Transfer',
      chosenValue: args,
      actingParties: [o.sender],
      signatories: [DSO],
      stakeholders: [DSO],
      consuming: false,
      children: ['1', '2', '3'],
      contractId: factory,
    }),
    exercise('1', {
      packageName: 'splice-amulet',
      templateId: AMULET,
      choiceId: 'Archive',
      chosenValue: record({}),
      actingParties: [DSO, o.sender],
      signatories: [DSO, o.sender],
      stakeholders: [DSO, o.sender],
      consuming: true,
      children: [],
      contractId: input,
    }),
    create('2', 'splice-amulet', AMULET, amuletArg(o.receiver, o.amount), [DSO, o.receiver], [DSO, o.receiver]),
    create('3', 'splice-amulet', AMULET, amuletArg(o.sender, '12.5'), [DSO, o.sender], [DSO, o.sender]),
  ];
  return prepared([o.sender], ['0'], nodes, [{ owner: o.sender, amount: '100.0', contract: input }]);
}

/** Native Canton Coin transfer: ExternalPartyAmuletRules_CreateTransferCommand. */
export function amuletTransfer(o: {
  sender: string;
  receiver: string;
  amount: string;
  description?: string;
  delegate?: string;
}): PreparedTransaction {
  const args = record({
    sender: party(o.sender),
    receiver: party(o.receiver),
    delegate: party(o.delegate ?? VALIDATOR),
    amount: numeric(o.amount),
    expiresAt: timestamp(new Date(Date.now() + 86_400_000)),
    nonce: int64('7'),
    description: o.description ? some(text(o.description)) : none(),
    expectedDso: some(party(DSO)),
  });
  const nodes = [
    exercise('0', {
      packageName: 'splice-amulet',
      templateId: id(SPLICE_AMULET_PKG, 'Splice.ExternalPartyAmuletRules', 'ExternalPartyAmuletRules'),
      choiceId: 'ExternalPartyAmuletRules_CreateTransferCommand',
      chosenValue: args,
      actingParties: [o.sender],
      signatories: [DSO],
      stakeholders: [DSO],
      consuming: false,
      children: ['1'],
    }),
    create(
      '1',
      'splice-amulet',
      id(SPLICE_AMULET_PKG, 'Splice.ExternalPartyAmuletRules', 'TransferCommand'),
      record({
        dso: party(DSO),
        sender: party(o.sender),
        receiver: party(o.receiver),
        delegate: party(o.delegate ?? VALIDATOR),
        amount: numeric(o.amount),
        expiresAt: timestamp(new Date(Date.now() + 86_400_000)),
        nonce: int64('7'),
        description: o.description ? some(text(o.description)) : none(),
      }),
      [DSO, o.sender],
      [DSO, o.sender, o.delegate ?? VALIDATOR],
    ),
  ];
  return prepared([o.sender], ['0'], nodes);
}

/** Adds an input contract (a contract the transaction uses, covered by the hash) of splice-amulet. */
function withInput(tx: PreparedTransaction, c: { contractId: string; templateId: Identifier; argument: Value; signatories: string[] }) {
  must(tx.metadata, 'tx.metadata').inputContracts.push({
    contract: {
      oneofKind: 'v1',
      v1: {
        lfVersion: '2.1',
        contractId: c.contractId,
        packageName: 'splice-amulet',
        templateId: c.templateId,
        argument: c.argument,
        signatories: c.signatories,
        stakeholders: c.signatories,
      },
    },
    createdAt: BigInt(Date.now() - 60_000) * 1000n,
    eventBlob: new Uint8Array(),
  });
  return tx;
}

/** The external party accepts its validator's ExternalPartySetupProposal (the console's own preapproval setup). */
export function preapprovalSetup(o: { user: string; validator: string }): PreparedTransaction {
  const proposal = contractId();
  const nodes = [
    exercise('0', {
      packageName: 'splice-amulet',
      templateId: id(SPLICE_AMULET_PKG, 'Splice.AmuletRules', 'ExternalPartySetupProposal'),
      choiceId: 'ExternalPartySetupProposal_Accept',
      chosenValue: record({}),
      actingParties: [o.user],
      signatories: [o.validator],
      stakeholders: [o.validator, o.user],
      consuming: true,
      children: [],
      contractId: proposal,
    }),
  ];
  return withInput(prepared([o.user], ['0'], nodes), {
    contractId: proposal,
    templateId: id(SPLICE_AMULET_PKG, 'Splice.AmuletRules', 'ExternalPartySetupProposal'),
    argument: record({
      validator: party(o.validator),
      user: party(o.user),
      dso: party(DSO),
      createdAt: timestamp(new Date(Date.now() - 120_000)),
      preapprovalExpiresAt: timestamp(new Date(Date.UTC(2027, 0, 1))),
    }),
    signatories: [o.validator],
  });
}

/** `TransferPreapproval_Send`: the sender pays into the receiver's pre-approval. */
export function preapprovalSend(o: {
  sender: string;
  receiver: string;
  provider: string;
  amount: string;
  memo?: string;
}): PreparedTransaction {
  const preapproval = contractId();
  const genMap = (entries: Array<[Value, Value]>): Value => ({
    sum: { oneofKind: 'genMap', genMap: { entries: entries.map(([key, value]) => ({ key, value })) } },
  });
  const variant = (constructor: string, value: Value): Value => ({ sum: { oneofKind: 'variant', variant: { constructor, value } } });
  const nodes = [
    exercise('0', {
      packageName: 'splice-amulet',
      templateId: id(SPLICE_AMULET_PKG, 'Splice.AmuletRules', 'TransferPreapproval'),
      choiceId: 'TransferPreapproval_Send',
      chosenValue: record({
        context: record({
          amuletRules: cid(contractId()),
          context: record({
            openMiningRound: cid(contractId()),
            issuingMiningRounds: genMap([[record({ number: int64('41') }), cid(contractId())]]),
            validatorRights: genMap([]),
            featuredAppRight: none(),
          }),
        }),
        inputs: list([variant('InputAmulet', cid(contractId()))]),
        amount: numeric(o.amount),
        sender: party(o.sender),
        description: o.memo ? some(text(o.memo)) : none(),
      }),
      actingParties: [o.sender],
      signatories: [DSO, o.receiver, o.provider],
      stakeholders: [DSO, o.receiver, o.provider],
      consuming: false,
      children: [],
      contractId: preapproval,
    }),
  ];
  return withInput(prepared([o.sender], ['0'], nodes), {
    contractId: preapproval,
    templateId: id(SPLICE_AMULET_PKG, 'Splice.AmuletRules', 'TransferPreapproval'),
    argument: record({
      dso: party(DSO),
      receiver: party(o.receiver),
      provider: party(o.provider),
      validFrom: timestamp(new Date(Date.now() - 86_400_000)),
      lastRenewedAt: timestamp(new Date(Date.now() - 86_400_000)),
      expiresAt: timestamp(new Date(Date.now() + 86_400_000 * 90)),
    }),
    signatories: [DSO, o.receiver, o.provider],
  });
}

/** TransferPreapprovalProposal created by the (external) receiver. */
export function preapprovalProposal(o: { receiver: string; provider: string }): PreparedTransaction {
  const nodes = [
    create(
      '0',
      'splice-wallet',
      id(WALLET_PKG, 'Splice.Wallet.TransferPreapproval', 'TransferPreapprovalProposal'),
      record({ receiver: party(o.receiver), provider: party(o.provider), expectedDso: some(party(DSO)) }),
      [o.receiver],
      [o.receiver, o.provider],
    ),
  ];
  return prepared([o.receiver], ['0'], nodes);
}

const N10: Type = { kind: 'prim', prim: 'Numeric', args: [{ kind: 'nat', value: 10 }] };
const PARTY_T: Type = { kind: 'prim', prim: 'Party', args: [] };
/** A small application package (a real LF archive) with the Iou the `iouSplit` fixture uses. */
export const myAppPackage = encodeArchive({
  name: 'my-app',
  version: '1.0.0',
  modules: [
    {
      name: 'MyApp.Iou',
      templates: [
        {
          name: 'Iou',
          fields: [
            { name: 'owner', type: PARTY_T },
            { name: 'amount', type: N10 },
          ],
          choices: [
            {
              name: 'Iou_Split',
              argFields: [
                { name: 'splitAmount', type: N10 },
                { name: 'newOwner', type: PARTY_T },
              ],
            },
          ],
        },
      ],
    },
  ],
});

/**
 * An application transaction no recogniser states: described field by field when the types of `packageId` are
 * available (`myAppPackage`), blind otherwise (the default id names no package anyone has).
 */
export function iouSplit(o: { owner: string; amount: string; counterparty: string; packageId?: string }): PreparedTransaction {
  const iou = id(o.packageId ?? '1f' + '00'.repeat(31), 'MyApp.Iou', 'Iou');
  const nodes = [
    exercise('0', {
      packageName: 'my-app',
      templateId: iou,
      choiceId: 'Iou_Split',
      chosenValue: record({ splitAmount: numeric(o.amount), newOwner: party(o.counterparty) }),
      actingParties: [o.owner],
      signatories: [o.owner],
      stakeholders: [o.owner],
      consuming: true,
      children: ['1', '2'],
    }),
    create('1', 'my-app', iou, record({ owner: party(o.counterparty), amount: numeric(o.amount) }), [o.owner], [o.owner, o.counterparty]),
    create('2', 'my-app', iou, record({ owner: party(o.owner), amount: numeric('1.0') }), [o.owner], [o.owner]),
  ];
  return prepared([o.owner], ['0'], nodes);
}

export function encode(tx: PreparedTransaction): string {
  return Buffer.from(PreparedTransaction.toBinary(tx)).toString('base64');
}

/** A JSON API prepare response for the transaction, hashed with the official library. */
export async function prepareResponse(tx: PreparedTransaction) {
  const preparedTransaction = encode(tx);
  return {
    preparedTransaction,
    preparedTransactionHash: await hashPreparedTransaction(preparedTransaction, 'base64'),
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
  };
}

/** Re-encodes a decoded copy after `mutate`, keeping the ORIGINAL hash (what a malicious participant would send). */
export async function tampered(tx: PreparedTransaction, mutate: (copy: PreparedTransaction) => void) {
  const honest = await prepareResponse(tx);
  const copy = PreparedTransaction.fromBinary(PreparedTransaction.toBinary(tx));
  mutate(copy);
  return { ...honest, preparedTransaction: encode(copy) };
}

// ---- topology ---------------------------------------------------------------------------------------------
function wrapVersioned(inner: Uint8Array, version = 30): Uint8Array {
  const varint = (n: number) => {
    const out: number[] = [];
    while (n > 0x7f) {
      out.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.push(n);
    return out;
  };
  return new Uint8Array([0x0a, ...varint(inner.length), ...inner, 0x10, ...varint(version)]);
}

export function topologyTransactions(o: {
  partyId: string;
  publicKey: Uint8Array;
  participant?: string;
  permission?: Enums_ParticipantPermission;
}): string[] {
  const namespace = must(o.partyId.split('::')[1], "o.partyId.split('::')[1]");
  const signingKey = {
    format: CryptoKeyFormat.RAW,
    publicKey: o.publicKey,
    // deprecated in the proto, still part of what Canton serialises and hashes: the fixture writes what a participant would
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    scheme: SigningKeyScheme.ED25519,
    usage: [SigningKeyUsage.NAMESPACE, SigningKeyUsage.PROTOCOL],
    keySpec: SigningKeySpec.EC_CURVE25519,
  };
  const txs: TopologyTransaction[] = [
    TopologyTransaction.create({
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: {
        mapping: {
          oneofKind: 'namespaceDelegation',
          namespaceDelegation: {
            namespace,
            targetKey: signingKey,
            // deprecated in the proto, still part of what Canton serialises and hashes (as scheme above)
            // eslint-disable-next-line @typescript-eslint/no-deprecated
            isRootDelegation: true,
            restriction: { oneofKind: 'canSignAllMappings', canSignAllMappings: {} },
          },
        },
      },
    }),
    TopologyTransaction.create({
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: {
        mapping: {
          oneofKind: 'partyToParticipant',
          partyToParticipant: {
            party: o.partyId,
            threshold: 1,
            participants: [
              {
                participantUid: o.participant ?? PARTICIPANT.slice(5),
                permission: o.permission ?? Enums_ParticipantPermission.CONFIRMATION,
              },
            ],
          },
        },
      },
    }),
    TopologyTransaction.create({
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: {
        mapping: { oneofKind: 'partyToKeyMapping', partyToKeyMapping: { party: o.partyId, threshold: 1, signingKeys: [signingKey] } },
      },
    }),
  ];
  return txs.map((t) => Buffer.from(wrapVersioned(TopologyTransaction.toBinary(t))).toString('base64'));
}

export async function multiHashOf(txs: string[]): Promise<string> {
  const hashes = await Promise.all(txs.map((t) => computeSha256CantonHash(11, Buffer.from(t, 'base64'))));
  return Buffer.from(await computeSha256CantonHash(55, await computeMultiHashForTopology(hashes))).toString('base64');
}
