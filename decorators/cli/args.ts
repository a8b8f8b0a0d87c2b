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
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === '' || (inline === undefined && next.startsWith('-'))) {
        throw new UsageError(`${flag} needs a value`);
      }
      return next;
    };
    switch (flag) {
      case '--type':
        types.push(value());
        break;
      case '--out':
        if (out !== undefined) throw new UsageError('--out is given twice');
        out = value();
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
  }
  if (!help && files.length === 0) throw new UsageError('no files given');
  return { files, types, out, check, help };
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}
