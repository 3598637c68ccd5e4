/**
 * The token-standard registry of the DSO's Amulet (what Splice's Scan serves and the validator proxies under
 * `/v0/scan-proxy/registry/...`): instrument metadata, and the factories and choice contexts clients need to exercise
 * the token-standard choices — the context keys and disclosed contracts of Splice's registry:
 *
 * - transfer factory: `amulet-rules`, `open-round` (+ `transfer-preapproval` and the preapproval provider's
 *   `featured-app-right` when the receiver pre-approved); disclosed: AmuletRules, the open round,
 *   ExternalPartyAmuletRules (and the preapproval / right); `transferKind` self / direct / offer;
 * - transfer instruction accept / reject / withdraw and allocation execute-transfer / withdraw / cancel:
 *   `amulet-rules`, `open-round`, `expire-lock` (whether the locked amulet still exists; accept and execute need it).
 *
 * The HTTP layer (`routes-registry.ts`) runs the automation first and maps `RegistryError` to the API's `{ "error" }`
 * answers; the wallet's own token-standard endpoints use the same contexts.
 */
import { z } from 'zod';
import { microsToIso } from '../clock.js';
import type { ContractRow } from '../model.js';
import { createdEventBlob } from '../projection-events.js';
import type { WalletApp } from './app.js';
import { AMULET_PACKAGE_NAME, effectiveAmount, fmt } from './coin.js';
import { args, T } from './names.js';
import { ALLOCATION_QN } from './templates-allocation.js';
import { TRANSFER_INSTRUCTION_QN } from './templates-transfer-instruction.js';
import { AMULET_INSTRUMENT_ID, CTX } from './token-context.js';
import { asText } from '../lf-text.js';

export class RegistryError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface DisclosedContractJson {
  templateId: string;
  contractId: string;
  createdEventBlob: string;
  synchronizerId: string;
  debugPackageName?: string;
  debugPayload?: Record<string, unknown>;
  debugCreatedAt?: string;
}

export type AnyValueJson = { tag: 'AV_ContractId'; value: string } | { tag: 'AV_Bool'; value: boolean };

export interface RegistryChoiceContext {
  choiceContextData: { values: Record<string, AnyValueJson> };
  disclosedContracts: DisclosedContractJson[];
}

/** Only the fields the registry reads; everything else (e.g. a `lock: null` some clients add) is ignored, as by Splice. */
const TransferArgsSchema = z.object({
  expectedAdmin: z.string(),
  transfer: z.object({
    sender: z.string().min(1),
    receiver: z.string().min(1),
    instrumentId: z.object({ admin: z.string(), id: z.string() }),
  }),
});
const AllocateArgsSchema = z.object({
  expectedAdmin: z.string(),
  allocation: z.object({ transferLeg: z.object({ instrumentId: z.object({ admin: z.string(), id: z.string() }) }) }),
});

class ContextBuilder {
  private readonly values: Record<string, AnyValueJson> = {};
  private readonly disclosed: DisclosedContractJson[] = [];

  constructor(private readonly debug: boolean) {}

  disclose(c: ContractRow): this {
    if (this.disclosed.some((d) => d.contractId === c.contractId)) return this;
    this.disclosed.push({
      templateId: `${c.node.packageId}:${c.node.qualifiedName}`,
      contractId: c.contractId,
      createdEventBlob: createdEventBlob(c.node),
      synchronizerId: c.synchronizerId,
      ...(this.debug
        ? {
            debugPackageName: c.node.packageName,
            debugPayload: c.node.createArgument as Record<string, unknown>,
            debugCreatedAt: c.node.createdAt,
          }
        : {}),
    });
    return this;
  }

  contract(key: string, c: ContractRow | undefined): this {
    if (!c) return this;
    this.values[key] = { tag: 'AV_ContractId', value: c.contractId };
    return this.disclose(c);
  }

  bool(key: string, value: boolean): this {
    this.values[key] = { tag: 'AV_Bool', value };
    return this;
  }

  build(): RegistryChoiceContext {
    return { choiceContextData: { values: this.values }, disclosedContracts: this.disclosed };
  }
}

export class AmuletTokenRegistry {
  constructor(private readonly app: WalletApp) {}

  /** The instrument admin: the DSO party. */
  get admin(): string {
    this.app.init();
    return this.app.dso;
  }

  private requireAdmin(expected: string, what: string): void {
    if (expected !== this.admin)
      throw new RegistryError(400, `${what}: expectedAdmin ${expected} is not the admin of this registry (${this.admin})`);
  }

  /** The AmuletRules and the current open round (as every Amulet choice needs them). */
  private base(debug: boolean): ContextBuilder {
    return new ContextBuilder(debug)
      .contract(CTX.amuletRules, this.app.rulesContract())
      .contract(CTX.openRound, this.app.openRoundContract());
  }

  /** The instrument the registry administers (Splice's registry lists Amulet only). */
  instrument(): Record<string, unknown> {
    // every amulet, locked or not, after the holding fees accrued up to the current round
    const round = this.app.openRound().round;
    let total = 0n;
    for (const c of [...this.app.contracts(this.admin, T.amulet), ...this.app.contracts(this.admin, T.locked)])
      total += effectiveAmount(args(c), round).effective;
    return {
      id: AMULET_INSTRUMENT_ID,
      name: 'Amulet',
      symbol: 'Amulet',
      totalSupply: fmt(total),
      totalSupplyAsOf: microsToIso(this.app.nowMicros()),
      decimals: 10,
      supportedApis: SUPPORTED_APIS,
    };
  }

  transferFactory(
    choiceArguments: unknown,
    debug: boolean,
  ): { factoryId: string; transferKind: 'self' | 'direct' | 'offer'; choiceContext: RegistryChoiceContext } {
    const p = TransferArgsSchema.safeParse(choiceArguments);
    if (!p.success) throw new RegistryError(400, 'Field `choiceArguments` does not contain a valid `TransferFactory_Transfer`.');
    const { transfer } = p.data;
    this.requireAdmin(p.data.expectedAdmin, 'TransferFactory_Transfer');
    const factory = this.app.externalRulesContract();
    const builder = this.base(debug);
    const self = transfer.receiver === transfer.sender;
    const preapproval = self ? undefined : this.app.preapprovalOf(transfer.receiver);
    if (preapproval) {
      builder.contract(CTX.preapproval, preapproval);
      builder.contract(CTX.featuredAppRight, this.app.featuredAppRightOf(asText(args(preapproval).provider)));
    }
    builder.disclose(factory);
    return {
      factoryId: factory.contractId,
      transferKind: self ? 'self' : preapproval ? 'direct' : 'offer',
      choiceContext: builder.build(),
    };
  }

  allocationFactory(choiceArguments: unknown, debug: boolean): { factoryId: string; choiceContext: RegistryChoiceContext } {
    const p = AllocateArgsSchema.safeParse(choiceArguments);
    if (!p.success) throw new RegistryError(400, 'Field `choiceArguments` does not contain a valid `AllocationFactory_Allocate`.');
    this.requireAdmin(p.data.expectedAdmin, 'AllocationFactory_Allocate');
    const factory = this.app.externalRulesContract();
    return { factoryId: factory.contractId, choiceContext: this.base(debug).disclose(factory).build() };
  }

  /** The context of a choice on an Amulet transfer instruction or allocation (both hold a locked amulet). */
  lockedContext(
    kind: 'AmuletTransferInstruction' | 'AmuletAllocation',
    contractId: string,
    needsLock: boolean,
    debug: boolean,
  ): RegistryChoiceContext {
    const qn = kind === 'AmuletTransferInstruction' ? TRANSFER_INSTRUCTION_QN : ALLOCATION_QN;
    const c = this.app.activeContract(contractId);
    if (!c || c.node.packageName !== AMULET_PACKAGE_NAME || c.node.qualifiedName !== qn)
      throw new RegistryError(404, `${kind} '${contractId}' not found.`);
    const lockedId = asText(args(c).lockedAmulet);
    const locked = this.app.activeContract(lockedId);
    if (!locked) {
      if (needsLock) throw new RegistryError(404, `LockedAmulet '${lockedId}' not found for ${kind} '${contractId}'`);
      return new ContextBuilder(debug).bool(CTX.expireLock, false).build();
    }
    return this.base(debug).disclose(locked).bool(CTX.expireLock, true).build();
  }
}

/** The token-standard APIs (name → major version) the Amulet registry implements. */
export const SUPPORTED_APIS: Record<string, number> = {
  'splice-api-token-metadata-v1': 1,
  'splice-api-token-holding-v1': 1,
  'splice-api-token-transfer-instruction-v1': 1,
  'splice-api-token-allocation-v1': 1,
  'splice-api-token-allocation-instruction-v1': 1,
};
