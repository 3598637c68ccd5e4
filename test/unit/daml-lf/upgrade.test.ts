import { describe, expect, it } from 'vitest';
import {
  checkUpgrade,
  compareVersions,
  encodeArchive,
  readDalf,
  type PackageDescription,
  type PackageSummary,
} from '../../../src/daml-lf/index.js';
import { INT64, PARTY, TEXT, iouPackage, numeric, optional } from './fixtures.js';

const summary = (d: PackageDescription): PackageSummary => readDalf(encodeArchive(d).bytes);

/** iouPackage with version 2.0.0 and `edit` applied to a deep copy of its description. */
function v2(edit: (d: PackageDescription) => void = () => {}): PackageSummary {
  const d = structuredClone(iouPackage({ version: '2.0.0' }));
  edit(d);
  return summary(d);
}

const v1 = summary(iouPackage());
const iouTemplate = (d: PackageDescription) => {
  const t = d.modules[1]?.templates?.[0];
  if (t === undefined) throw new Error('fixture changed');
  return t;
};

describe('checkUpgrade', () => {
  it('an identical model with a higher version is compatible', () => {
    expect(checkUpgrade(v1, v2())).toEqual({ compatible: true, problems: [] });
  });

  it('new Optional fields at the end, new templates, choices and data types are compatible', () => {
    const next = v2((d) => {
      iouTemplate(d).fields.push({ name: 'memo', type: optional(TEXT) }, { name: 'tags', type: optional(numeric(10)) });
      iouTemplate(d).choices?.push({ name: 'Merge', argFields: [{ name: 'other', type: PARTY }] });
      d.modules[1]?.templates?.push({ name: 'Receipt', fields: [{ name: 'by', type: PARTY }] });
      d.modules.push({ name: 'Iou.Extra', dataTypes: [{ kind: 'enum', name: 'Color', constructors: ['Red'] }] });
      const cur = d.modules[1]?.dataTypes?.[0];
      if (cur?.kind === 'enum') cur.constructors.push('GBP');
    });
    expect(checkUpgrade(v1, next)).toEqual({ compatible: true, problems: [] });
  });

  it('package name must stay the same and the version must be higher', () => {
    const renamed = checkUpgrade(v1, summary(iouPackage({ name: 'other-model', version: '2.0.0' })));
    expect(renamed.compatible).toBe(false);
    expect(renamed.problems).toEqual(['package name changed from "iou-model" to "other-model"']);
    expect(checkUpgrade(v1, v1).problems).toEqual(['package version 1.0.0 is not higher than 1.0.0']);
    expect(checkUpgrade(v1, summary(iouPackage({ version: '0.9.10' }))).problems).toEqual([
      'package version 0.9.10 is not higher than 1.0.0',
    ]);
    expect(checkUpgrade(summary(iouPackage({ version: '1.0.9' })), summary(iouPackage({ version: '1.0.10' }))).compatible).toBe(true);
  });

  it('a removed template is incompatible and named', () => {
    const r = checkUpgrade(
      v1,
      v2((d) => {
        (d.modules[1] ?? { templates: [] }).templates = [];
      }),
    );
    expect(r.compatible).toBe(false);
    expect(r.problems).toContain('template Iou.Main:Iou was removed');
  });

  it('a removed choice is incompatible; a changed consuming flag or return type too', () => {
    const removed = checkUpgrade(
      v1,
      v2((d) => {
        iouTemplate(d).choices = iouTemplate(d).choices?.filter((c) => c.name !== 'Split');
      }),
    );
    // the choice's argument record disappears with it and is reported too
    expect(removed.problems).toEqual(['template Iou.Main:Iou choice Split was removed', 'record Iou.Main:Split was removed']);
    const changed = checkUpgrade(
      v1,
      v2((d) => {
        const t = iouTemplate(d);
        t.choices = t.choices?.map((c) =>
          c.name === 'Peek' ? { ...c, consuming: true } : c.name === 'Archive' ? { ...c, returnType: TEXT } : c,
        );
      }),
    );
    expect(changed.problems).toEqual([
      'template Iou.Main:Iou choice Archive: return type changed from Unit to Text',
      'template Iou.Main:Iou choice Peek changed from non-consuming to consuming',
    ]);
  });

  it('a removed field is incompatible and named', () => {
    const r = checkUpgrade(
      v1,
      v2((d) => {
        iouTemplate(d).fields = iouTemplate(d).fields.filter((f) => f.name !== 'note');
      }),
    );
    expect(r.compatible).toBe(false);
    expect(r.problems).toContain('template Iou.Main:Iou: field note was removed');
  });

  it('a retyped field is incompatible and names both types', () => {
    const r = checkUpgrade(
      v1,
      v2((d) => {
        iouTemplate(d).fields = iouTemplate(d).fields.map((f) => (f.name === 'amount' ? { ...f, type: numeric(2) } : f));
      }),
    );
    expect(r.problems).toEqual(['template Iou.Main:Iou: field amount changed type from Numeric 10 to Numeric 2']);
  });

  it('a non-optional new field is incompatible', () => {
    const r = checkUpgrade(
      v1,
      v2((d) => {
        iouTemplate(d).fields.push({ name: 'count', type: INT64 });
      }),
    );
    expect(r.problems).toEqual(['template Iou.Main:Iou: new field count has type Int64; fields added in an upgrade must be Optional']);
  });

  it('a new field anywhere but the end is incompatible (existing fields move)', () => {
    const r = checkUpgrade(
      v1,
      v2((d) => {
        iouTemplate(d).fields.unshift({ name: 'memo', type: optional(TEXT) });
      }),
    );
    expect(r.compatible).toBe(false);
    expect(r.problems[0]).toBe('template Iou.Main:Iou: field issuer moved from position 1 to 2');
    expect(r.problems).toContain('template Iou.Main:Iou: new field memo is not at the end (position 1)');
  });

  it('choice argument records follow the record rules (removed field, non-optional addition)', () => {
    const r = checkUpgrade(
      v1,
      v2((d) => {
        iouTemplate(d).choices = iouTemplate(d).choices?.map((c) =>
          c.name === 'Transfer' ? { ...c, argFields: [{ name: 'recipient', type: PARTY }] } : c,
        );
      }),
    );
    expect(r.problems).toEqual([
      'record Iou.Main:Transfer: field newOwner was removed',
      'record Iou.Main:Transfer: new field recipient is not at the end (position 1)',
      'record Iou.Main:Transfer: new field recipient has type Party; fields added in an upgrade must be Optional',
    ]);
  });

  it('keys cannot be added, removed or retyped; interface instances cannot be removed', () => {
    expect(
      checkUpgrade(
        v1,
        v2((d) => {
          delete iouTemplate(d).key;
        }),
      ).problems,
    ).toEqual(['template Iou.Main:Iou: contract key was removed']);
    expect(
      checkUpgrade(
        v1,
        v2((d) => {
          iouTemplate(d).key = TEXT;
        }),
      ).problems,
    ).toEqual(['template Iou.Main:Iou: key type changed from Party to Text']);
    const noKey = summary(
      iouPackage({ modules: iouPackage().modules.map((m) => ({ ...m, templates: m.templates?.map(({ key: _k, ...t }) => t) })) }),
    );
    expect(checkUpgrade(noKey, v2()).problems).toEqual(['template Iou.Main:Iou: contract key was added']);
    expect(
      checkUpgrade(
        v1,
        v2((d) => {
          iouTemplate(d).implements = [];
        }),
      ).problems,
    ).toEqual(['template Iou.Main:Iou: interface instance Iou.Holding:Holding was removed']);
  });

  it('variants and enums: constructors are only appended; removed interfaces, modules and exceptions are named', () => {
    const r = checkUpgrade(
      v1,
      v2((d) => {
        const main = d.modules[1];
        if (main === undefined) throw new Error('fixture changed');
        main.dataTypes = main.dataTypes?.map((dt) =>
          dt.kind === 'enum'
            ? { ...dt, constructors: ['EUR', 'USD', 'CHF'] }
            : dt.kind === 'variant'
              ? { ...dt, constructors: dt.constructors.slice(1) }
              : dt,
        );
        main.exceptions = [];
        iouTemplate(d).implements = [];
        d.modules.splice(0, 1);
      }),
    );
    expect(r.problems).toEqual([
      'module Iou.Holding was removed',
      'template Iou.Main:Iou: interface instance Iou.Holding:Holding was removed',
      'enum Iou.Main:Currency: constructor USD changed position',
      'enum Iou.Main:Currency: constructor EUR changed position',
      'variant Iou.Main:Settlement: constructor Cash was removed',
      'variant Iou.Main:Settlement: constructor Delivery changed position',
      'exception Iou.Main:InsufficientFunds was removed',
    ]);
  });

  it('interfaces: removed interface or changed view type is incompatible', () => {
    const r = checkUpgrade(
      v1,
      v2((d) => {
        const holding = d.modules[0]?.interfaces?.[0];
        if (holding === undefined) throw new Error('fixture changed');
        delete holding.viewFields;
        holding.viewType = TEXT;
      }),
    );
    expect(r.problems).toEqual([
      'interface Iou.Holding:Holding: view type changed from Iou.Holding:HoldingView to Text',
      'record Iou.Holding:HoldingView was removed',
    ]);
  });

  it('a lower Daml-LF version is incompatible', () => {
    const newer = summary(iouPackage({ lfMinor: 'dev' }));
    const r = checkUpgrade(newer, v2());
    expect(r.problems).toEqual(['Daml-LF version 2.1 is lower than 2.dev']);
  });

  it('compareVersions orders dotted numeric versions numerically', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(compareVersions('0.0.1', '0.1')).toBe(-1);
  });
});
