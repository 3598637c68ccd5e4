/**
 * The event formats the model reads with: a fixed set that covers each filter rule once (party and
 * any-party filters, wildcard/template/interface filters with and without blobs and views, both
 * template-id reference forms, cumulative lists, `Empty` entries, a party that sees nothing, a party
 * allocated during the scenario) plus seeded random ones.
 */
import type { Json } from './daml.js';
import type { EventFormatJson } from './rules-filter.js';
import type { Prng } from './prng.js';

export interface NamedFormat {
  name: string;
  format: EventFormatJson;
}

type Cumulative = { identifierFilter: Record<string, { value: Record<string, Json> }> };

const wildcardF = (blob?: boolean): Cumulative => ({
  identifierFilter: { WildcardFilter: { value: blob === undefined ? {} : { includeCreatedEventBlob: blob } } },
});
const templateF = (templateId: string, blob?: boolean): Cumulative => ({
  identifierFilter: { TemplateFilter: { value: { templateId, ...(blob === undefined ? {} : { includeCreatedEventBlob: blob }) } } },
});
const interfaceF = (interfaceId: string, view?: boolean, blob?: boolean): Cumulative => ({
  identifierFilter: {
    InterfaceFilter: {
      value: {
        interfaceId,
        ...(view === undefined ? {} : { includeInterfaceView: view }),
        ...(blob === undefined ? {} : { includeCreatedEventBlob: blob }),
      },
    },
  },
});
const emptyF = (): Cumulative => ({ identifierFilter: { Empty: { value: {} } } });

export function eventFormats(
  rng: Prng,
  packageId: string,
  parties: { core: string[]; nobody: string; late: string[] },
  randomCount: number,
): NamedFormat[] {
  const [bank, alice, bob, carol, dave] = parties.core as [string, string, string, string, string];
  const byName = (qn: string): string => `#simulator-demo:${qn}`;
  const byId = (qn: string): string => `${packageId}:${qn}`;
  const IOU = 'Demo.Iou:Iou';
  const PROPOSAL = 'Demo.Iou:IouProposal';
  const ACCOUNT = 'Demo.Account:Account';
  const ASSET = 'Demo.Asset:Asset';
  const fixed: NamedFormat[] = [
    { name: 'one party, no cumulative', format: { filtersByParty: { [alice]: {} } } },
    {
      name: 'two parties: [] and WildcardFilter',
      format: { filtersByParty: { [bob]: { cumulative: [] }, [carol]: { cumulative: [wildcardF()] } } },
    },
    { name: 'any party', format: { filtersForAnyParty: {} } },
    { name: 'template filter by package name', format: { filtersByParty: { [alice]: { cumulative: [templateF(byName(IOU))] } } } },
    {
      name: 'template filter by package id, with blob',
      format: { filtersByParty: { [bank]: { cumulative: [templateF(byId(ACCOUNT), true)] } } },
    },
    { name: 'interface filter with view', format: { filtersByParty: { [bob]: { cumulative: [interfaceF(byName(ASSET), true)] } } } },
    {
      name: 'template / interface+blob / wildcard for three parties',
      format: {
        filtersByParty: {
          [alice]: { cumulative: [templateF(byName(PROPOSAL))] },
          [carol]: { cumulative: [interfaceF(byId(ASSET), true, true)] },
          [dave]: {},
        },
      },
    },
    {
      name: 'any-party interface view with a party template filter',
      format: {
        filtersForAnyParty: { cumulative: [interfaceF(byName(ASSET), true)] },
        filtersByParty: { [bank]: { cumulative: [templateF(byName(PROPOSAL), true)] } },
      },
    },
    { name: 'wildcard with blob', format: { filtersByParty: { [dave]: { cumulative: [wildcardF(true)] } } } },
    {
      name: 'Empty next to a template filter',
      format: { filtersByParty: { [carol]: { cumulative: [emptyF(), templateF(byName(ACCOUNT))] } } },
    },
    { name: 'only Empty', format: { filtersByParty: { [bank]: { cumulative: [emptyF()] } } } },
    {
      name: 'interface filter without view, with blob',
      format: { filtersByParty: { [alice]: { cumulative: [interfaceF(byName(ASSET), false, true)] } } },
    },
    { name: 'the party that takes part in nothing', format: { filtersByParty: { [parties.nobody]: {} } } },
    {
      name: 'interface view + template blob + wildcard, cumulated',
      format: { filtersByParty: { [bob]: { cumulative: [interfaceF(byName(ASSET), true), templateF(byName(IOU), true), wildcardF()] } } },
    },
  ];
  if (parties.late[0]) fixed.push({ name: 'a party allocated during the scenario', format: { filtersByParty: { [parties.late[0]]: {} } } });

  const everyone = [...parties.core, ...parties.late, parties.nobody];
  const randomFilters = (): { cumulative?: Cumulative[] } => {
    if (rng.chance(0.2)) return {};
    const list: Cumulative[] = [];
    for (let k = rng.int(1, 3); k > 0; k--) {
      const pick = rng.int(0, 4);
      const qn = rng.pick([IOU, PROPOSAL, ACCOUNT]);
      const ref = rng.chance(0.5) ? byName : byId;
      const flag = (): boolean | undefined => (rng.chance(0.3) ? undefined : rng.chance(0.5));
      if (pick === 0) list.push(wildcardF(flag()));
      else if (pick === 1 || pick === 2) list.push(templateF(ref(qn), flag()));
      else if (pick === 3) list.push(interfaceF(ref(ASSET), flag(), flag()));
      else list.push(emptyF());
    }
    return { cumulative: list };
  };
  const random: NamedFormat[] = [];
  for (let i = 0; i < randomCount; i++) {
    const who = rng.subset(everyone, 0.3).slice(0, 3);
    const any = who.length === 0 || rng.chance(0.25);
    const format: EventFormatJson = {
      ...(who.length > 0 ? { filtersByParty: Object.fromEntries(who.map((p) => [p, randomFilters()])) } : {}),
      ...(any ? { filtersForAnyParty: randomFilters() } : {}),
    };
    random.push({ name: `random #${i + 1}`, format });
  }
  return [...fixed, ...random];
}

/** Parties a format names (for topology filters and the legacy request forms). */
export const partiesOf = (f: EventFormatJson): string[] => Object.keys(f.filtersByParty ?? {});
