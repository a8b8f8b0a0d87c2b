import { isModuleNotFound, missingPeerError } from '../core/kit/missing-peer';
import { describeError } from '../core/kit/safe-inspect';
import { jsonErrorOffset } from './dataset-json-position';
import { EvalError } from './eval-error';

/** The text formats of a dataset file. */
export type DatasetFormat = 'yaml' | 'json';

type YamlModule = typeof import('yaml');

/** The `yaml` peer, loaded on first use; missing → the missing-peer `ConfigError`. */
function loadYaml(): YamlModule {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, loaded by literal name on first use
    return require('yaml') as YamlModule;
  } catch (error) {
    if (isModuleNotFound(error) && describeError(error).includes("'yaml'")) {
      throw missingPeerError('golem/evals', ['yaml']);
    }
    throw error;
  }
}

/** 1-based line and column of `offset` in `text`. */
function lineColumn(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, col: (lines.at(-1) ?? '').length + 1 };
}

function where(file: string | undefined): string {
  return file === undefined ? 'the dataset text' : file;
}

/**
 * Parses the text of a dataset file into a plain value. Malformed text throws `EvalError` (kind
 * `dataset`, with `file`) whose message gives the line and column.
 * @internal
 */
export function parseDatasetText(
  text: string,
  format: DatasetFormat,
  file: string | undefined,
): unknown {
  return format === 'json' ? parseJson(text, file) : parseYaml(text, file);
}

function parseJson(text: string, file: string | undefined): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = describeError(error);
    const given = /at position (\d+)/.exec(reason)?.[1];
    const offset = given === undefined ? jsonErrorOffset(text) : Number(given);
    const at = offset === undefined ? undefined : lineColumn(text, offset);
    const position = at === undefined ? '' : ` at line ${at.line}, column ${at.col}`;
    throw new EvalError('dataset', `${where(file)} is not valid JSON${position}: ${reason}`, {
      file,
      cause: error,
    });
  }
}

function parseYaml(text: string, file: string | undefined): unknown {
  const yaml = loadYaml();
  const doc = yaml.parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const [error] = doc.errors;
  if (error !== undefined) {
    const at = error.linePos?.[0] ?? lineColumn(text, error.pos[0]);
    const reason = error.message.split('\n')[0] ?? error.message;
    throw new EvalError(
      'dataset',
      `${where(file)} is not valid YAML at line ${at.line}, column ${at.col}: ${reason.replace(/ at line \d+, column \d+:?$/, '')}`,
      { file, cause: error },
    );
  }
  try {
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (cause) {
    throw new EvalError('dataset', `${where(file)} cannot be read: ${describeError(cause)}`, {
      file,
      cause,
    });
  }
}

/**
 * The text of a dataset file: pretty JSON (2 spaces) or YAML, ending with a newline.
 * @internal
 */
export function stringifyDatasetText(value: unknown, format: DatasetFormat): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  const yaml = loadYaml();
  return yaml.stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 });
}
