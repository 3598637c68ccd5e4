/**
 * Independent check of the LF2 AST decoder: the same reference DARs are unzipped with fflate and decoded with
 * protobufjs from ../shared/reference/daml-lf/daml_lf{,2}.proto (loaded at test time, not copied), and the counts and
 * names of everything are compared with our AST: interned tables, metadata, modules, templates, choices, interfaces,
 * data types with their field types, values with their types, synonyms, exceptions, and histograms of every expression
 * form, update form, case pattern, literal and builtin function (so every expression must have been decoded).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { readDalfAst, type Literal, type PackageAst, type Type } from '../../../src/daml-lf/ast/index.js';
import { walkPackage } from '../../../src/daml-lf/ast/walk.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ref = path.resolve(repoRoot, '../shared/reference');
const darDir = path.join(ref, 'dars');

type Msg = protobuf.Message & Record<string, unknown>;
// compiled Daml nests expressions far deeper than protoc's default limit of 100 messages (Daml's reader raises it too)
protobuf.Reader.recursionLimit = 100_000;
const root = protobuf.loadSync([path.join(ref, 'daml-lf/daml_lf.proto'), path.join(ref, 'daml-lf/daml_lf2.proto')]);
const ArchiveT = root.lookupType('daml_lf.Archive');
const PayloadT = root.lookupType('daml_lf.ArchivePayload');
const PackageT = root.lookupType('daml_lf_2.Package');
const builtinNames = root.lookupEnum('daml_lf_2.BuiltinFunction').valuesById;
const builtinTypes = root.lookupEnum('daml_lf_2.BuiltinType').valuesById;

const typeOf = (m: Msg): protobuf.Type => (m as unknown as { $type: protobuf.Type }).$type;
const oneof = (m: Msg, name = 'Sum'): string | undefined => m[name] as string | undefined;
const num = (v: unknown): number => Number(v ?? 0);
const norm = (s: string): string => s.toUpperCase().replace(/_/g, '');

/** Our AST's tags → the proto's oneof member names. */
const EXPR_CASE: Record<string, string> = { var: 'varInternedStr', lit: 'builtinLit', none: 'optionalNone', some: 'optionalSome' };
const PATTERN_CASE: Record<string, string> = { none: 'optionalNone', some: 'optionalSome' };
const LIT_CASE: Record<string, string> = { numeric: 'numericInternedStr', text: 'textInternedStr' };

interface Facts {
  interned: number[];
  meta: string;
  modules: string[];
  defs: string[];
  hist: Map<string, number>;
}

const bump = (h: Map<string, number>, k: string, by = 1): void => void h.set(k, (h.get(k) ?? 0) + by);

/** Facts from protobufjs' decoding. */
function pbFacts(pkgBytes: Uint8Array): Facts {
  const p: Msg = PackageT.decode(pkgBytes);
  const strings = p['internedStrings'] as string[];
  const dn = (p['internedDottedNames'] as Msg[]).map((d) =>
    ((d['segmentsInternedStr'] as number[] | undefined) ?? []).map((i) => strings[i]).join('.'),
  );
  const imports = ((p['packageImports'] as Msg | undefined)?.['importedPackages'] as string[] | undefined) ?? [];
  const selfId = 'SELF';
  const pkgRef = (r: Msg): string => {
    const c = oneof(r);
    return c === 'selfPackageId'
      ? selfId
      : c === 'packageImportId'
        ? (imports[num(r[c])] as string)
        : (strings[num(r['importedPackageIdInternedStr'])] as string);
  };
  const qn = (t: Msg): string => {
    const m = t['module'] as Msg;
    return `${pkgRef(m['packageId'] as Msg)}:${dn[num(m['moduleNameInternedDname'])]}:${dn[num(t['nameInternedDname'])]}`;
  };
  const itypes: string[] = [];
  const ty = (t: Msg): string => {
    const c = oneof(t);
    const args = (x: Msg): string => ((x['args'] as Msg[] | undefined) ?? []).map(ty).join(',');
    const v = t[c as string] as Msg;
    switch (c) {
      case 'var':
        return `v(${strings[num(v['varInternedStr'])]};${args(v)})`;
      case 'con':
        return `c(${qn(v['tycon'] as Msg)};${args(v)})`;
      case 'syn':
        return `y(${qn(v['tysyn'] as Msg)};${args(v)})`;
      case 'builtin':
        return `b(${norm(builtinTypes[num(v['builtin'])] as string)};${args(v)})`;
      case 'forall':
        return `f(${(v['vars'] as Msg[]).map((x) => strings[num(x['varInternedStr'])]).join(',')};${ty(v['body'] as Msg)})`;
      case 'struct':
        return `s(${(v['fields'] as Msg[]).map((x) => `${strings[num(x['fieldInternedStr'])]}:${ty(x['type'] as Msg)}`).join(',')})`;
      case 'nat':
        return `n(${String(t['nat'])})`;
      case 'internedType':
        return itypes[num(t['internedType'])] as string;
      default:
        throw new Error(`type case ${c}`);
    }
  };
  for (const t of p['internedTypes'] as Msg[]) itypes.push(ty(t));
  const md = p['metadata'] as Msg | undefined;
  const modules: string[] = [];
  const defs: string[] = [];
  for (const m of p['modules'] as Msg[]) {
    const mn = dn[num(m['nameInternedDname'])] as string;
    modules.push(mn);
    for (const d of m['dataTypes'] as Msg[]) {
      const kind = oneof(d, 'DataCons') as string;
      const fs = kind === 'enum' ? ((d['enum'] as Msg)['constructorsInternedStr'] as number[]) : [];
      const fields =
        kind === 'record' || kind === 'variant'
          ? ((d[kind] as Msg)['fields'] as Msg[]).map((f) => `${strings[num(f['fieldInternedStr'])]}:${ty(f['type'] as Msg)}`)
          : fs.map((i) => strings[i]);
      defs.push(`data ${mn}:${dn[num(d['nameInternedDname'])]} ${kind} ${fields.join(',')} ser=${Boolean(d['serializable'])}`);
    }
    for (const s of m['synonyms'] as Msg[]) defs.push(`syn ${mn}:${dn[num(s['nameInternedDname'])]}`);
    for (const v of m['values'] as Msg[]) {
      const nt = v['nameWithType'] as Msg;
      defs.push(`val ${mn}:${dn[num(nt['nameInternedDname'])]} : ${ty(nt['type'] as Msg)}`);
    }
    for (const x of m['exceptions'] as Msg[]) defs.push(`exc ${mn}:${dn[num(x['nameInternedDname'])]}`);
    const choices = (cs: Msg[]): string => cs.map((c) => `${strings[num(c['nameInternedStr'])]}/${Boolean(c['consuming'])}`).join(',');
    for (const t of m['templates'] as Msg[])
      defs.push(
        `tpl ${mn}:${dn[num(t['tyconInternedDname'])]} key=${t['key'] != null} ` +
          `${choices(t['choices'] as Msg[])} impl=${(t['implements'] as Msg[]).length}`,
      );
    for (const i of m['interfaces'] as Msg[])
      defs.push(
        `ifc ${mn}:${dn[num(i['tyconInternedDname'])]} ${choices(i['choices'] as Msg[])} ` +
          `methods=${(i['methods'] as Msg[]).map((x) => strings[num(x['methodInternedName'])]).join(',')} ` +
          `requires=${(i['requires'] as Msg[]).length}`,
      );
  }
  // histograms over the whole message tree
  const hist = new Map<string, number>();
  const stack: Msg[] = [p];
  while (stack.length > 0) {
    const m = stack.pop() as Msg;
    const t = typeOf(m);
    const name = t.fullName;
    if (name === '.daml_lf_2.Expr') {
      const c = oneof(m) as string;
      bump(hist, `expr:${c}`);
      if (c === 'builtin') bump(hist, `builtin:${builtinNames[num(m['builtin'])]}`);
    } else if (name === '.daml_lf_2.Update') bump(hist, `update:${oneof(m)}`);
    else if (name === '.daml_lf_2.CaseAlt') bump(hist, `pattern:${oneof(m)}`);
    else if (name === '.daml_lf_2.BuiltinLit') {
      const c = oneof(m) as string;
      bump(hist, `lit:${c}`);
      if (c === 'int64' || c === 'timestamp') bump(hist, `litsum:${c}`, Number(BigInt(String(m[c])) % 1000003n));
      if (c === 'textInternedStr') bump(hist, 'litsum:text', (strings[num(m[c])] as string).length);
    }
    for (const f of t.fieldsArray) {
      if (!(f.resolvedType instanceof protobuf.Type)) continue;
      const v = m[f.name];
      if (Array.isArray(v)) for (const x of v) stack.push(x as Msg);
      else if (v != null && typeof v === 'object') stack.push(v as Msg);
    }
  }
  const interned = [
    strings.length,
    dn.length,
    itypes.length,
    (p['internedKinds'] as unknown[]).length,
    (p['internedExprs'] as unknown[]).length,
  ];
  return {
    interned,
    meta: md ? `${strings[num(md['nameInternedStr'])]}@${strings[num(md['versionInternedStr'])]}` : '',
    modules,
    defs,
    hist,
  };
}

/** The same facts from our AST. */
function astFacts(a: PackageAst): Facts {
  const pid = (id: string): string => (id === a.packageId ? 'SELF' : id);
  const tys = (ts: Type[]): string => ts.map(ty).join(',');
  function ty(t: Type): string {
    switch (t.kind) {
      case 'var':
        return `v(${t.name};${tys(t.args)})`;
      case 'con':
        return `c(${pid(t.packageId)}:${t.module}:${t.name};${tys(t.args)})`;
      case 'syn':
        return `y(${pid(t.synonym.packageId)}:${t.synonym.module}:${t.synonym.name};${tys(t.args)})`;
      case 'prim':
        return `b(${norm(t.prim)};${tys(t.args)})`;
      case 'forall':
        return `f(${t.vars.join(',')};${ty(t.body)})`;
      case 'struct':
        return `s(${t.fields.map((f) => `${f.name}:${ty(f.type)}`).join(',')})`;
      case 'nat':
        return `n(${t.value})`;
      case 'app':
        return `a(${ty(t.fun)};${tys(t.args)})`;
    }
  }
  const defs: string[] = [];
  for (const m of a.modules) {
    for (const d of m.dataTypes) {
      const names =
        d.cons.kind === 'record'
          ? d.cons.fields.map((f) => `${f.name}:${ty(f.type)}`)
          : d.cons.kind === 'variant'
            ? d.cons.constructors.map((f) => `${f.name}:${ty(f.type)}`)
            : d.cons.kind === 'enum'
              ? d.cons.constructors
              : [];
      defs.push(`data ${m.name}:${d.name} ${d.cons.kind} ${names.join(',')} ser=${d.serializable}`);
    }
    for (const s of m.synonyms) defs.push(`syn ${m.name}:${s.name}`);
    for (const v of m.values) defs.push(`val ${m.name}:${v.name} : ${ty(v.type)}`);
    for (const x of m.exceptions) defs.push(`exc ${m.name}:${x.name}`);
    const choices = (cs: { name: string; consuming: boolean }[]): string => cs.map((c) => `${c.name}/${c.consuming}`).join(',');
    for (const t of m.templates)
      defs.push(`tpl ${m.name}:${t.name} key=${t.key !== undefined} ${choices(t.choices)} impl=${t.implements.length}`);
    for (const i of m.interfaces)
      defs.push(
        `ifc ${m.name}:${i.name} ${choices(i.choices)} methods=${i.methods.map((x) => x.name).join(',')} requires=${i.requires.length}`,
      );
  }
  const hist = new Map<string, number>();
  const lit = (l: Literal): void => {
    bump(hist, `lit:${LIT_CASE[l.lit] ?? l.lit}`);
    if (l.lit === 'int64' || l.lit === 'timestamp') bump(hist, `litsum:${l.lit}`, Number(l.value % 1000003n));
    if (l.lit === 'text') bump(hist, 'litsum:text', l.value.length);
  };
  walkPackage(
    a,
    (e) => {
      bump(hist, `expr:${EXPR_CASE[e.tag] ?? e.tag}`);
      if (e.tag === 'builtin') bump(hist, `builtin:${e.fn}`);
      if (e.tag === 'lit') lit(e.lit);
      if (e.tag === 'case') for (const alt of e.alts) bump(hist, `pattern:${PATTERN_CASE[alt.pattern.pat] ?? alt.pattern.pat}`);
    },
    (u) => bump(hist, `update:${u.tag}`),
  );
  const i = a.interned;
  return {
    interned: [i.strings, i.dottedNames, i.types, i.kinds, i.exprs],
    meta: a.name === '' && a.version === '' ? '' : `${a.name}@${a.version}`,
    modules: a.modules.map((m) => m.name),
    defs,
    hist,
  };
}

describe('independent check: protobufjs + fflate over daml_lf2.proto agree with our AST decoder', () => {
  it('every reference DALF: interned tables, metadata, definitions, interned types and every expression form', () => {
    const dars = readdirSync(darDir).filter((n) => n.endsWith('.dar'));
    expect(dars.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    const total = new Map<string, number>();
    for (const dar of dars) {
      const entries = unzipSync(new Uint8Array(readFileSync(path.join(darDir, dar))));
      const dalfs = Object.keys(entries).filter((n) => n.endsWith('.dalf'));
      expect(dalfs.length).toBeGreaterThan(0);
      for (const name of dalfs) {
        const bytes = entries[name] as Uint8Array;
        const archive: Msg = ArchiveT.decode(bytes);
        const id = archive['hash'] as string;
        if (seen.has(id)) continue;
        seen.add(id);
        const payload: Msg = PayloadT.decode(archive['payload'] as Uint8Array);
        expect(oneof(payload)).toBe('damlLf_2');
        const pb = pbFacts(payload['damlLf_2'] as Uint8Array);
        const ast = readDalfAst(bytes);
        expect(ast.packageId).toBe(id);
        expect(ast.lfVersion).toBe(`2.${String(payload['minor'])}`);
        const ours = astFacts(ast);
        expect(ours.interned, name).toEqual(pb.interned);
        expect(ours.meta, name).toBe(pb.meta);
        expect(ours.modules, name).toEqual(pb.modules);
        expect(ours.defs, name).toEqual(pb.defs);
        expect(new Map([...ours.hist].sort()), name).toEqual(new Map([...pb.hist].sort()));
        for (const [k, v] of pb.hist) bump(total, k, v);
      }
    }
    expect(seen.size).toBeGreaterThan(40);
    // the forms real code uses are all present (so the comparison above covered them)
    for (const k of [
      'expr:app',
      'expr:case',
      'expr:let',
      'expr:update',
      'update:exercise',
      'update:create',
      'update:fetch',
      'pattern:variant',
      'lit:numericInternedStr',
    ])
      expect(total.get(k) ?? 0, k).toBeGreaterThan(0);
    // Decodes every reference DALF twice (≈ 9 s of CPU); a loaded 2-core CI machine needs far more than the default.
  }, 240_000);
});
