import { parseArgs as nodeParseArgs } from 'node:util';

/** A command line the user got wrong: exit 64 (EX_USAGE) with this message. */
export class UsageError extends Error {
  readonly exitCode = 64;
}

export interface ParsedArgs {
  flags: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Strict `--name value` / `--flag` parsing (node:util): an unknown option is a UsageError. */
export function parseArgs(argv: string[], spec: { boolean?: string[]; string?: string[] }): ParsedArgs {
  const options: Record<string, { type: 'boolean' | 'string' }> = {};
  for (const name of spec.boolean ?? []) options[name] = { type: 'boolean' };
  for (const name of spec.string ?? []) options[name] = { type: 'string' };
  try {
    const { values, positionals } = nodeParseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { flags: values as ParsedArgs['flags'], positionals };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
