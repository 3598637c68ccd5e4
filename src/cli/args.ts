/** A small strict flag parser: unknown flags and bad values are errors, never ignored. */
export type FlagSpec = Record<string, { type: 'string' | 'boolean' | 'port'; description: string }>;
export type ParsedFlags<S extends FlagSpec> = {
  [K in keyof S]?: S[K]['type'] extends 'boolean' ? boolean : S[K]['type'] extends 'port' ? number : string;
};

export class UsageError extends Error {}

export function parseFlags<S extends FlagSpec>(argv: string[], spec: S): ParsedFlags<S> {
  const out: Record<string, string | number | boolean> = {};
  const rest = [...argv];
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const [rawName, inlineValue] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const def = spec[rawName];
    if (!def) throw new UsageError(`unknown flag --${rawName}`);
    if (def.type === 'boolean') {
      if (inlineValue !== undefined) throw new UsageError(`--${rawName} takes no value`);
      out[rawName] = true;
      continue;
    }
    const value = inlineValue ?? rest.shift();
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${rawName} needs a value`);
    if (def.type === 'port') {
      const n = Number(value);
      if (!/^\d+$/.test(value) || n > 65535) throw new UsageError(`--${rawName} must be a port number 0-65535, got "${value}"`);
      out[rawName] = n;
    } else {
      out[rawName] = value;
    }
  }
  return out as ParsedFlags<S>;
}

export function usage(command: string, spec: FlagSpec): string {
  const lines = Object.entries(spec).map(
    ([name, d]) => `  --${name}${d.type === 'boolean' ? '' : ` <${d.type === 'port' ? 'port' : 'value'}>`}  ${d.description}`,
  );
  return `usage: ${command} [flags]\n${lines.join('\n')}`;
}
