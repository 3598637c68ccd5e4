/**
 * The active contracts of one party seen through one interface, with the views the instances compute
 * (`POST /v2/state/active-contracts` with an InterfaceFilter): the engine tests check token-standard views this way.
 */
import { z } from 'zod';

/** The token standard's Holding interface, by package name. */
export const HOLDING_INTERFACE = '#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding';

/** Posts a JSON body to a Ledger API path; the caller's client may validate the answer against the spec. */
export type PostJson = (path: string, body: unknown) => Promise<{ status: number; text: string; json: unknown }>;

const InterfaceView = z.object({ viewStatus: z.object({ code: z.number() }), viewValue: z.unknown().optional() });
export type InterfaceView = z.infer<typeof InterfaceView>;

const AcsPage = z.array(
  z.object({
    contractEntry: z.object({
      JsActiveContract: z.object({ createdEvent: z.object({ interfaceViews: z.array(InterfaceView).optional() }) }).optional(),
    }),
  }),
);

/** The interface views of `party`'s active contracts implementing `interfaceId` at `activeAtOffset`. */
export async function interfaceViewsAt(
  post: PostJson,
  party: string,
  interfaceId: string,
  activeAtOffset: number,
): Promise<InterfaceView[]> {
  const res = await post('/v2/state/active-contracts', {
    activeAtOffset,
    eventFormat: {
      filtersByParty: {
        [party]: {
          cumulative: [
            {
              identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: false } } },
            },
          ],
        },
      },
      verbose: true,
    },
  });
  if (res.status !== 200) throw new Error(`active contracts by interface ${interfaceId}: HTTP ${res.status} ${res.text}`);
  return AcsPage.parse(res.json).flatMap((e) => e.contractEntry.JsActiveContract?.createdEvent.interfaceViews ?? []);
}
