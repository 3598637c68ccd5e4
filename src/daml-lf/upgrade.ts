/**
 * Smart-contract-upgrade (SCU) compatibility between two versions of a package, as far as a `PackageSummary` allows:
 * - same package name, strictly higher version, LF version not lower;
 * - modules, templates, choices, interfaces and serializable data types are never removed;
 * - records (template arguments, choice arguments, other serializable records): existing fields keep name, order and
 *   type; new fields only at the end and only of type `Optional`;
 * - variants and enums: existing constructors unchanged, new constructors only at the end;
 * - template keys: not added, removed or retyped; interface instances not removed;
 * - choices: consuming-ness, argument type and return type unchanged (records they name are checked as records);
 * - interfaces: view type and choices unchanged.
 * Type references into other packages are compared by module and name (the dependency itself may have been upgraded).
 */
import { typeEquals, typeToString } from './type-format.js';
import type { Choice, DataType, Field, Module, PackageSummary, Template, Type } from './types.js';

export interface UpgradeCheck {
  compatible: boolean;
  problems: string[];
}

/** Compares dotted numeric versions (`1.2.10` > `1.2.9`); non-numeric segments compare as strings. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) {
      if (nx !== ny) return nx < ny ? -1 : 1;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

function compareLf(a: string, b: string): number {
  const norm = (v: string): string => v.replace(/\.dev$/, '.99999');
  return compareVersions(norm(a), norm(b));
}

const sameType = (a: Type, b: Type): boolean => typeEquals(a, b, { ignorePackageIds: true });
const isOptional = (t: Type): boolean => t.kind === 'prim' && t.prim === 'Optional';

function checkFields(where: string, oldFields: Field[], newFields: Field[], problems: string[]): void {
  for (const [i, of] of oldFields.entries()) {
    const nf = newFields[i];
    const moved = newFields.findIndex((f) => f.name === of.name);
    if (moved < 0) {
      problems.push(`${where}: field ${of.name} was removed`);
    } else if (nf === undefined || nf.name !== of.name) {
      problems.push(`${where}: field ${of.name} moved from position ${i + 1} to ${moved + 1}`);
    } else if (!sameType(of.type, nf.type)) {
      problems.push(`${where}: field ${of.name} changed type from ${typeToString(of.type)} to ${typeToString(nf.type)}`);
    }
  }
  for (const [i, nf] of newFields.entries()) {
    if (oldFields.some((f) => f.name === nf.name)) continue; // existing field, checked above
    if (i < oldFields.length) problems.push(`${where}: new field ${nf.name} is not at the end (position ${i + 1})`);
    if (!isOptional(nf.type)) {
      problems.push(`${where}: new field ${nf.name} has type ${typeToString(nf.type)}; fields added in an upgrade must be Optional`);
    }
  }
}

function checkDataType(where: string, o: DataType, n: DataType, problems: string[]): void {
  if (o.kind !== n.kind) {
    problems.push(`${where}: changed from a ${o.kind} to a ${n.kind}`);
    return;
  }
  if (o.params.join(',') !== n.params.join(',')) {
    problems.push(`${where}: type parameters changed from [${o.params.join(', ')}] to [${n.params.join(', ')}]`);
  }
  if (o.kind === 'record' && n.kind === 'record') {
    checkFields(where, o.fields, n.fields, problems);
  } else if (o.kind === 'variant' && n.kind === 'variant') {
    for (const [i, oc] of o.constructors.entries()) {
      const nc = n.constructors[i];
      if (!n.constructors.some((c) => c.name === oc.name)) problems.push(`${where}: constructor ${oc.name} was removed`);
      else if (nc === undefined || nc.name !== oc.name) problems.push(`${where}: constructor ${oc.name} changed position`);
      else if (!sameType(oc.type, nc.type)) {
        problems.push(`${where}: constructor ${oc.name} changed type from ${typeToString(oc.type)} to ${typeToString(nc.type)}`);
      }
    }
  } else if (o.kind === 'enum' && n.kind === 'enum') {
    for (const [i, oc] of o.constructors.entries()) {
      if (!n.constructors.includes(oc)) problems.push(`${where}: constructor ${oc} was removed`);
      else if (n.constructors[i] !== oc) problems.push(`${where}: constructor ${oc} changed position`);
    }
  }
}

function checkChoices(where: string, oldChoices: Choice[], newChoices: Choice[], problems: string[]): void {
  for (const oc of oldChoices) {
    const nc = newChoices.find((c) => c.name === oc.name);
    const cw = `${where} choice ${oc.name}`;
    if (nc === undefined) {
      problems.push(`${cw} was removed`);
      continue;
    }
    if (oc.consuming !== nc.consuming) {
      problems.push(
        `${cw} changed from ${oc.consuming ? 'consuming' : 'non-consuming'} to ${nc.consuming ? 'consuming' : 'non-consuming'}`,
      );
    }
    if (!sameType(oc.argType, nc.argType)) {
      problems.push(`${cw}: argument type changed from ${typeToString(oc.argType)} to ${typeToString(nc.argType)}`);
    }
    if (!sameType(oc.returnType, nc.returnType)) {
      problems.push(`${cw}: return type changed from ${typeToString(oc.returnType)} to ${typeToString(nc.returnType)}`);
    }
  }
}

function checkTemplate(where: string, o: Template, n: Template, problems: string[]): void {
  checkFields(where, o.fields, n.fields, problems);
  if (o.key !== undefined && n.key === undefined) problems.push(`${where}: contract key was removed`);
  else if (o.key === undefined && n.key !== undefined) problems.push(`${where}: contract key was added`);
  else if (o.key !== undefined && n.key !== undefined && !sameType(o.key, n.key)) {
    problems.push(`${where}: key type changed from ${typeToString(o.key)} to ${typeToString(n.key)}`);
  }
  const stripPkg = (s: string): string => s.split(':').slice(1).join(':');
  for (const i of o.implements) {
    if (!n.implements.some((x) => x === i || stripPkg(x) === stripPkg(i)))
      problems.push(`${where}: interface instance ${stripPkg(i)} was removed`);
  }
  checkChoices(where, o.choices, n.choices, problems);
}

function checkModule(o: Module, n: Module, problems: string[]): void {
  // Template and exception records are reported through their template / exception.
  const templateNames = new Set([...o.templates.map((t) => t.name), ...o.exceptions]);
  for (const ot of o.templates) {
    const nt = n.templates.find((t) => t.name === ot.name);
    if (nt === undefined) problems.push(`template ${ot.qualifiedName} was removed`);
    else checkTemplate(`template ${ot.qualifiedName}`, ot, nt, problems);
  }
  for (const oi of o.interfaces) {
    const ni = n.interfaces.find((i) => i.name === oi.name);
    const where = `interface ${oi.qualifiedName}`;
    if (ni === undefined) {
      problems.push(`${where} was removed`);
      continue;
    }
    if (!sameType(oi.viewType, ni.viewType)) {
      problems.push(`${where}: view type changed from ${typeToString(oi.viewType)} to ${typeToString(ni.viewType)}`);
    }
    checkChoices(where, oi.choices, ni.choices, problems);
  }
  for (const od of o.dataTypes) {
    if (!od.serializable || templateNames.has(od.name)) continue; // template records are checked as templates
    const nd = n.dataTypes.find((d) => d.name === od.name);
    const where = `${od.kind} ${o.name}:${od.name}`;
    if (nd === undefined) problems.push(`${where} was removed`);
    else if (!nd.serializable) problems.push(`${where} is no longer serializable`);
    else checkDataType(where, od, nd, problems);
  }
  for (const e of o.exceptions) {
    if (!n.exceptions.includes(e)) problems.push(`exception ${o.name}:${e} was removed`);
  }
}

/** Checks that `newPkg` is a valid smart-contract upgrade of `oldPkg`. Every problem names the element concerned. */
export function checkUpgrade(oldPkg: PackageSummary, newPkg: PackageSummary): UpgradeCheck {
  const problems: string[] = [];
  if (oldPkg.name !== newPkg.name) problems.push(`package name changed from "${oldPkg.name}" to "${newPkg.name}"`);
  if (compareVersions(newPkg.version, oldPkg.version) <= 0) {
    problems.push(`package version ${newPkg.version} is not higher than ${oldPkg.version}`);
  }
  if (compareLf(newPkg.lfVersion, oldPkg.lfVersion) < 0) {
    problems.push(`Daml-LF version ${newPkg.lfVersion} is lower than ${oldPkg.lfVersion}`);
  }
  for (const om of oldPkg.modules) {
    const nm = newPkg.modules.find((m) => m.name === om.name);
    if (nm === undefined) {
      const relevant =
        om.templates.length + om.interfaces.length + om.exceptions.length + om.dataTypes.filter((d) => d.serializable).length > 0;
      if (relevant) problems.push(`module ${om.name} was removed`);
      continue;
    }
    checkModule(om, nm, problems);
  }
  return { compatible: problems.length === 0, problems };
}
