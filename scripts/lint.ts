/**
 * `npm run lint`: ESLint over the folders of ENFORCED (eslint.config.js); any finding fails.
 * `npm run lint -- --report`: the findings over the whole tree (LINTED), counted per folder and per rule,
 * so the next folder to clean can be picked; exits 0.
 * `npm run lint -- PATH…`: lints the given paths and fails on any finding (to check a folder before enforcing it).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { z } from 'zod';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const ConfigLists = z.object({ ENFORCED: z.array(z.string()), LINTED: z.array(z.string()).min(1) });

export async function configLists(configFile = path.join(ROOT, 'eslint.config.js')): Promise<z.infer<typeof ConfigLists>> {
  return ConfigLists.parse(await import(configFile));
}

export interface Finding {
  file: string;
  line: number;
  rule: string;
  message: string;
}

/** Lints `patterns` (relative to `cwd`) with the config at `configFile`; every message is a finding. */
export async function lint(patterns: string[], cwd = ROOT, configFile = path.join(ROOT, 'eslint.config.js')): Promise<Finding[]> {
  const eslint = new ESLint({ cwd, overrideConfigFile: configFile, errorOnUnmatchedPattern: true });
  const results = await eslint.lintFiles(patterns);
  return results.flatMap((r) =>
    r.messages.map((m) => ({
      file: path.relative(cwd, r.filePath),
      line: m.line,
      rule: m.ruleId ?? (m.fatal ? 'parse-error' : 'unknown'),
      message: m.message,
    })),
  );
}

/** The folder a finding is counted under: two levels below src/, test/ and renderer/src, else the top level. */
export function folderOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts.length === 1) return '.';
  if (parts[0] === 'renderer' && parts[1] === 'src' && parts.length > 3) return parts.slice(0, 3).join('/');
  if ((parts[0] === 'src' || parts[0] === 'test') && parts.length > 2) return parts.slice(0, 2).join('/');
  return parts[0] ?? '.';
}

function table(counts: Map<string, number>): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, v]) => `${String(v).padStart(6)}  ${k}`)
    .join('\n');
}

function countBy(findings: Finding[], key: (f: Finding) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(key(f), (counts.get(key(f)) ?? 0) + 1);
  return counts;
}

async function main(argv: string[]): Promise<number> {
  const { ENFORCED, LINTED } = await configLists();
  if (argv[0] === '--report') {
    const findings = await lint(LINTED);
    console.log(`${findings.length} findings over ${LINTED.join(' ')} (enforced: ${ENFORCED.join(' ') || 'none'})\n`);
    console.log(`per folder:\n${table(countBy(findings, (f) => folderOf(f.file)))}\n`);
    console.log(`per rule:\n${table(countBy(findings, (f) => f.rule))}`);
    return 0;
  }
  const targets = argv.length > 0 ? argv : ENFORCED;
  if (targets.length === 0) {
    console.log('lint: no folder is enforced yet');
    return 0;
  }
  const findings = await lint(targets);
  for (const f of findings) console.log(`${f.file}:${f.line}  ${f.rule}  ${f.message}`);
  console.log(findings.length === 0 ? `lint: clean (${targets.join(' ')})` : `lint: ${findings.length} finding(s)`);
  return findings.length === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`lint failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    },
  );
}
