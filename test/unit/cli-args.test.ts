import { describe, expect, it } from 'vitest';
import { parseFlags, UsageError } from '../../src/cli/args.js';

const SPEC = {
  port: { type: 'port', description: 'p' },
  data: { type: 'string', description: 'd' },
  reset: { type: 'boolean', description: 'r' },
} as const;

describe('CLI flag parsing', () => {
  it('parses ports, strings and booleans in both --k v and --k=v forms', () => {
    expect(parseFlags(['--port', '0', '--data=/tmp/x', '--reset'], SPEC)).toEqual({ port: 0, data: '/tmp/x', reset: true });
  });
  it.each([
    [['--nope'], /unknown flag --nope/],
    [['--port', 'abc'], /port number/],
    [['--port', '70000'], /port number/],
    [['--port'], /needs a value/],
    [['--data', '--reset'], /needs a value/],
    [['--reset=yes'], /takes no value/],
    [['stray'], /unexpected argument/],
  ])('rejects %j with a specific message', (argv, msg) => {
    expect(() => parseFlags(argv, SPEC)).toThrow(UsageError);
    expect(() => parseFlags(argv, SPEC)).toThrow(msg);
  });
});
