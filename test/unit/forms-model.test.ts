/** Form generation and validation from Daml-LF types, end to end from a real encoded archive. */
import { describe, expect, it } from 'vitest';
import { encodeArchive, PackageIndex, readDalf } from '../../src/daml-lf/index.js';
import { buildCatalog } from '../../src/services/ledger/templates.js';
import type { FieldType } from '../../src/ipc/contract.js';
import {
  dateError,
  defaultValue,
  int64Error,
  newCommandId,
  normalizeValue,
  numericError,
  parseJson,
  partyError,
  timestampError,
  typeLabel,
  validate,
} from '../../renderer/src/lib/forms/model.js';
import { must } from '../support/must.js';

const P = 'Alice::1220' + 'a'.repeat(64);
const CID = '00' + 'ab'.repeat(33);

const prim = (p: string, args: unknown[] = []) => ({ kind: 'prim', prim: p, args }) as const;

/** A package exercising every serializable kind, encoded as a real LF2 archive and decoded back. */
function catalog() {
  const con = (name: string, args: unknown[] = []) => ({ kind: 'con', packageId: 'self', module: 'Main', name, args });
  const desc = {
    name: 'forms-test',
    version: '1.0.0',
    modules: [
      {
        name: 'Main',
        dataTypes: [
          { kind: 'enum', name: 'Colour', constructors: ['Red', 'Green'] },
          {
            kind: 'variant',
            name: 'Shape',
            constructors: [
              { name: 'Circle', type: prim('Numeric', [{ kind: 'nat', value: 2 }]) },
              { name: 'Dot', type: prim('Unit') },
            ],
          },
          {
            kind: 'record',
            name: 'Point',
            fields: [
              { name: 'x', type: prim('Int64') },
              { name: 'y', type: prim('Int64') },
            ],
          },
        ],
        templates: [
          {
            name: 'Everything',
            fields: [
              { name: 'owner', type: prim('Party') },
              { name: 'note', type: prim('Text') },
              { name: 'count', type: prim('Int64') },
              { name: 'price', type: prim('Numeric', [{ kind: 'nat', value: 4 }]) },
              { name: 'flag', type: prim('Bool') },
              { name: 'day', type: prim('Date') },
              { name: 'at', type: prim('Timestamp') },
              { name: 'ref', type: prim('ContractId', [con('Everything')]) },
              { name: 'maybe', type: prim('Optional', [prim('Party')]) },
              { name: 'tags', type: prim('List', [prim('Text')]) },
              { name: 'colour', type: con('Colour') },
              { name: 'shape', type: con('Shape') },
              { name: 'where', type: con('Point') },
              { name: 'scores', type: prim('TextMap', [prim('Int64')]) },
            ],
            signatories: ['owner'],
            choices: [{ name: 'Move', consuming: true, argFields: [{ name: 'to', type: con('Point') }], returnType: prim('Unit') }],
          },
        ],
      },
    ],
  };
  const { bytes } = encodeArchive(desc as never);
  const summary = readDalf(bytes);
  return { summary, catalog: buildCatalog(new PackageIndex([summary])) };
}

describe('template definitions → form field types', () => {
  it('resolves every field of a decoded LF2 template, including records, variants and enums', () => {
    const { summary, catalog: c } = catalog();
    expect(c.templates).toHaveLength(1);
    const t = must(c.templates[0], 'c.templates[0]');
    expect(t.id).toBe(`${summary.packageId}:Main:Everything`);
    expect(t.nameRef).toBe('#forms-test:Main:Everything');
    const arg = t.argument as Extract<FieldType, { kind: 'record' }>;
    const kinds = Object.fromEntries(arg.fields.map((f) => [f.name, typeLabel(f.type)]));
    expect(kinds).toEqual({
      owner: 'Party',
      note: 'Text',
      count: 'Int',
      price: 'Numeric 4',
      flag: 'Bool',
      day: 'Date',
      at: 'Time',
      ref: 'ContractId Main:Everything',
      maybe: 'Optional Party',
      tags: '[Text]',
      colour: 'Colour',
      shape: 'Shape',
      where: 'Point',
      scores: 'TextMap Int',
    });
    const move = must(
      t.choices.find((ch) => ch.name === 'Move'),
      "t.choices.find((ch) => ch.name === 'Move')",
    );
    expect(move.argument).toEqual({
      kind: 'record',
      name: 'Main:Move',
      fields: [
        {
          name: 'to',
          type: {
            kind: 'record',
            name: 'Main:Point',
            fields: [
              { name: 'x', type: { kind: 'int64' } },
              { name: 'y', type: { kind: 'int64' } },
            ],
          },
        },
      ],
    });
  });

  it('starts a form with a value of the right shape that is invalid only where input is required', () => {
    const t = must(catalog().catalog.templates[0], 'catalog().catalog.templates[0]');
    const v = defaultValue(t.argument);
    expect(v).toMatchObject({
      maybe: null,
      tags: [],
      colour: 'Red',
      shape: { tag: 'Circle', value: '' },
      where: { x: '', y: '' },
      scores: {},
      flag: false,
    });
    const paths = validate(t.argument, v)
      .map((i) => i.path)
      .sort();
    expect(paths).toEqual(['at', 'count', 'day', 'owner', 'price', 'ref', 'shape.value', 'where.x', 'where.y'].sort());
  });

  it('accepts a complete value and reports each wrong field by path', () => {
    const t = must(catalog().catalog.templates[0], 'catalog().catalog.templates[0]');
    const good = {
      owner: P,
      note: 'hi',
      count: '-5',
      price: '12.3400',
      flag: true,
      day: '2024-02-29',
      at: '2024-02-29T10:00:00Z',
      ref: CID,
      maybe: P,
      tags: ['a'],
      colour: 'Green',
      shape: { tag: 'Dot', value: {} },
      where: { x: '1', y: '2' },
      scores: { a: '1' },
    };
    expect(validate(t.argument, good)).toEqual([]);
    const bad = {
      ...good,
      price: '1.23456',
      day: '2023-02-29',
      colour: 'Blue',
      shape: { tag: 'Square', value: {} },
      where: { x: '1' },
      extra: 1,
      tags: [3],
    };
    const issues = validate(t.argument, bad);
    expect(issues.map((i) => i.path).sort()).toEqual(['colour', 'day', 'extra', 'price', 'shape', 'tags.0', 'where.y'].sort());
    expect(
      must(
        issues.find((i) => i.path === 'price'),
        "issues.find((i) => i.path === 'price')",
      ).message,
    ).toBe('at most 4 decimal places (Numeric 4)');
    expect(
      must(
        issues.find((i) => i.path === 'where.y'),
        "issues.find((i) => i.path === 'where.y')",
      ).message,
    ).toBe('missing field');
  });
});

describe('scalar checks', () => {
  it('numeric scale and precision', () => {
    expect(numericError('1.1234567890', 10)).toBeNull();
    expect(numericError('1.12345678900000', 10)).toBeNull(); // trailing zeros are not significant
    expect(numericError('1.12345678901', 10)).toMatch(/at most 10 decimal places/);
    expect(numericError('1.5', 0)).toMatch(/no decimals/);
    expect(numericError('1'.repeat(29), 10)).toMatch(/too large/);
    expect(numericError('abc', 10)).toMatch(/not a decimal/);
  });
  it('int64 range', () => {
    expect(int64Error('9223372036854775807')).toBeNull();
    expect(int64Error('9223372036854775808')).toMatch(/range/);
    expect(int64Error('1.5')).toMatch(/whole/);
  });
  it('dates, times, parties', () => {
    expect(dateError('2024-02-29')).toBeNull();
    expect(dateError('2023-02-29')).toMatch(/calendar/);
    expect(timestampError('2024-01-01T00:00:00.123456Z')).toBeNull();
    expect(timestampError('2024-01-01 00:00')).toMatch(/ISO/);
    expect(partyError(P)).toBeNull();
    expect(partyError('Alice')).toMatch(/hint::namespace/);
  });
  it('nested optionals use [] / [v]', () => {
    const t: FieldType = { kind: 'optional', elem: { kind: 'optional', elem: { kind: 'int64' } } };
    expect(validate(t, null)).toEqual([]);
    expect(validate(t, [])).toEqual([]);
    expect(validate(t, ['3'])).toEqual([]);
    expect(validate(t, '3')).toHaveLength(1);
  });
});

describe('JSON editor and submission helpers', () => {
  it('parses JSON and validates it against the same type', () => {
    const t: FieldType = { kind: 'record', name: 'M:R', fields: [{ name: 'n', type: { kind: 'numeric', scale: 2 } }] };
    expect(parseJson('{', t)).toMatchObject({ ok: false });
    expect(parseJson('{"n":"1.234"}', t)).toMatchObject({ ok: true, issues: [{ path: 'n' }] });
    expect(parseJson('{"n":"1.23"}', t)).toMatchObject({ ok: true, issues: [] });
  });
  it('trims identifiers and numbers but not text', () => {
    const t: FieldType = {
      kind: 'record',
      name: 'M:R',
      fields: [
        { name: 'p', type: { kind: 'party' } },
        { name: 't', type: { kind: 'text' } },
      ],
    };
    expect(normalizeValue(t, { p: ` ${P} `, t: ' x ' })).toEqual({ p: P, t: ' x ' });
  });
  it('command ids are valid Canton command ids and differ', () => {
    const a = newCommandId();
    expect(a).toMatch(/^console-[a-z0-9]+-[a-z0-9]{6}$/);
    expect(newCommandId()).not.toBe(a);
  });
});
