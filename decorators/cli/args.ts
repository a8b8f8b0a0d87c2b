/** The parsed command line of `golem schemas`. */
export interface SchemasArgs {
  readonly files: readonly string[];
  /** Restrict to these type names (repeatable `--type`); empty means every type in the files. */
  readonly types: readonly string[];
  /** Directory to write `<Name>.schema.json` files to; without it, schemas go to stdout. */
  readonly out: string | undefined;
  readonly check: boolean;
  readonly help: boolean;
}

/** Usage text of `golem schemas`. */
export const SCHEMAS_USAGE = `usage: golem schemas <files…> [--type Name]… [--out dir] [--check]

Generates JSON Schemas (with JSDoc descriptions) from the TypeScript types declared in the
files, with typescript-json-schema. Use them for types class-validator metadata cannot express:
@Output(Dto, { schema }) or @Tool({ schema }).

  --type Name   only this type (repeatable); default: every type declared in the files
  --out dir     write <Name>.schema.json files there (default: print JSON to stdout)
  --check       load the files and compare each decorated DTO class's runtime schema with its
                TypeScript type (property names, required-ness, primitive types); exit 1 on
                any disagreement
  -h, --help    show this help`;

/** A command-line mistake; the message is shown with the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parses `argv` (the arguments after `schemas`). Throws {@link UsageError}. */
export function parseSchemasArgs(argv: readonly string[]): SchemasArgs {
  const files: string[] = [];
  const types: string[] = [];
  let out: string | undefined;
  let check = false;
  let help = false as boolean; // set inside the readArgs callback
  readArgs(argv, ({ arg, flag, value }) => {
    switch (flag) {
      case '--type':
        types.push(value({ dashes: false }));
        break;
      case '--out':
        onlyOnce(flag, out);
        out = value({ dashes: false });
        break;
      case '--check':
        check = true;
        break;
      case '-h':
      case '--help':
        help = true;
        break;
      default:
        if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
        files.push(arg);
    }
  });
  if (!help && files.length === 0) throw new UsageError('no files given');
  return { files, types, out, check, help };
}

/** One argument of a command line, as {@link readArgs} hands it over. */
export interface CliArg {
  /** The argument as given. */
  readonly arg: string;
  /** `--flag` of `--flag=value`; any other argument as given. */
  readonly flag: string;
  /** `value` of `--flag=value`, else `undefined`. */
  readonly inline: string | undefined;
  /**
   * The flag's value: the inline one, else the next argument (consumed). A missing or blank value
   * is a usage error, and so is a next argument starting with `-` when `dashes` is `false`.
   */
  readonly value: (options?: { dashes?: boolean }) => string;
}

/** Reads a command line argument by argument: `--flag value` and `--flag=value` alike. */
export function readArgs(argv: readonly string[], onArg: (arg: CliArg) => void): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const at = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = at < 0 ? arg : arg.slice(0, at);
    const inline = at < 0 ? undefined : arg.slice(at + 1);
    onArg({
      arg,
      flag,
      inline,
      value: ({ dashes = true } = {}) => {
        const next = inline ?? argv[++i];
        if (
          next === undefined ||
          next.trim() === '' ||
          (!dashes && inline === undefined && next.startsWith('-'))
        )
          throw new UsageError(`${flag} needs a value`);
        return next;
      },
    });
  }
}

/** Refuses a flag given a second time (`current` is what the first gave). */
export function onlyOnce(flag: string, current: unknown): void {
  if (current !== undefined) throw new UsageError(`${flag} is given twice`);
}
