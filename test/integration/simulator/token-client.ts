/**
 * A token-standard client's side of the registry tests: the holdings it reads through the Holding interface, and the
 * Ledger API submission it makes with a registry's choice context and disclosed contracts.
 */
import { acs, acsCreated, submitTx } from './helpers.js';

export interface ChoiceContext {
  choiceContextData: { values: Record<string, unknown> };
  disclosedContracts: { templateId: string; contractId: string; createdEventBlob: string; synchronizerId: string }[];
}
/** The client's calls against the participant at `base`. */
export function tokenClient(base: string) {
  const holdings = async (party: string) =>
    acsCreated(
      await acs(base, {
        filtersByParty: {
          [party]: {
            cumulative: [
              {
                identifierFilter: {
                  InterfaceFilter: {
                    value: { interfaceId: '#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding', includeInterfaceView: true },
                  },
                },
              },
            ],
          },
        },
      }),
    ).map((e) => ({
      cid: e.contractId,
      view: (e.interfaceViews?.[0] as { viewValue: { amount: string; owner: string; lock: unknown } }).viewValue,
    }));
  const unlocked = async (party: string) => (await holdings(party)).filter((h) => h.view.lock === null && h.view.owner === party);
  /** The Ledger API submission a token-standard client makes with a registry context. */
  const exerciseWith = (
    actAs: string[],
    interfaceId: string,
    cid: string,
    choice: string,
    arg: Record<string, unknown>,
    ctx: ChoiceContext,
  ) =>
    submitTx(base, actAs, [{ ExerciseCommand: { templateId: interfaceId, contractId: cid, choice, choiceArgument: arg } }], {
      disclosedContracts: ctx.disclosedContracts,
    });
  const extraArgs = (ctx: ChoiceContext) => ({ context: ctx.choiceContextData, meta: { values: {} } });
  return { holdings, unlocked, exerciseWith, extraArgs };
}
