import { isMap, parseDocument } from 'yaml';
import { isRecord } from '../../core/kit/guards';

/** Front matter must close within this many bytes of the start of `SKILL.md`. */
export const FRONT_MATTER_LIMIT = 65_536;

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The validated fields of a skill's front matter. */
export interface SkillMetadata {
  name: string;
  description: string;
  compatibility?: string;
}

/** `SKILL.md` split at its front-matter delimiters; `bodyStart` is a byte offset. */
export interface SplitSkill {
  yaml: string;
  bodyStart: number;
}

/**
 * Splits `SKILL.md` bytes into the YAML between the opening `---` line and the next `---` line,
 * and the byte offset where the body starts. Returns a problem string when the file has no
 * front matter or it does not close within {@link FRONT_MATTER_LIMIT} bytes.
 */
export function splitSkillFile(bytes: Buffer): SplitSkill | string {
  const start = bytes.subarray(0, 3).equals(BOM) ? 3 : 0;
  const open = lineEnd(bytes, start, 3);
  if (bytes.toString('latin1', start, start + 3) !== '---' || open === undefined) {
    return 'SKILL.md must start with YAML front matter: a "---" line, the fields, then a "---" line';
  }
  let from = open;
  while (from < bytes.length && from < FRONT_MATTER_LIMIT) {
    const at = bytes.indexOf('---', from, 'latin1');
    if (at < 0 || at >= FRONT_MATTER_LIMIT) break;
    const end = bytes[at - 1] === 0x0a ? lineEnd(bytes, at, 3) : undefined;
    if (end !== undefined) {
      return { yaml: bytes.toString('utf8', open, at), bodyStart: end };
    }
    from = at + 3;
  }
  return `the front matter is not closed by a "---" line within ${FRONT_MATTER_LIMIT} bytes`;
}

/** The offset after a line that holds `width` bytes at `at` then `\n`, `\r\n` or end of file. */
function lineEnd(bytes: Buffer, at: number, width: number): number | undefined {
  const after = at + width;
  if (after === bytes.length) return after;
  if (bytes[after] === 0x0a) return after + 1;
  if (bytes[after] === 0x0d && bytes[after + 1] === 0x0a) return after + 2;
  return undefined;
}

/**
 * Parses front-matter YAML with the `yaml` package and validates it (spec §26.4): `name` required,
 * 1–64 lowercase letters/digits with single inner hyphens, equal to `folder`; `description`
 * required, 1–1024 characters; `compatibility` optional, 1–500 characters. Other fields are
 * allowed and ignored. Returns the metadata, or a problem string.
 */
export function parseFrontMatter(yaml: string, folder: string): SkillMetadata | string {
  const doc = parseDocument(yaml, { uniqueKeys: true, prettyErrors: false });
  const [error] = doc.errors;
  if (error !== undefined) {
    return `the front matter is not valid YAML: ${error.message.split('\n')[0] ?? ''}`;
  }
  if (!isMap(doc.contents)) return 'the front matter must be a YAML mapping of fields';
  let fields: unknown;
  try {
    fields = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    return `the front matter cannot be read: ${(cause as Error).message}`;
  }
  if (!isRecord(fields)) return 'the front matter must be a YAML mapping of fields';
  const name = field(fields, 'name');
  const description = field(fields, 'description');
  const compatibility = field(fields, 'compatibility');
  const problem =
    textProblem('name', name, 64, true) ??
    textProblem('description', description, 1024, true) ??
    textProblem('compatibility', compatibility, 500, false);
  if (problem !== undefined) return problem;
  const checkedName = name as string;
  if (!NAME.test(checkedName)) {
    return `name ${JSON.stringify(checkedName)} must be lowercase letters and digits with single hyphens between them`;
  }
  if (checkedName !== folder) {
    return `name ${JSON.stringify(checkedName)} must equal its folder name ${JSON.stringify(folder)}`;
  }
  const metadata: SkillMetadata = { name: checkedName, description: description as string };
  if (typeof compatibility === 'string') metadata.compatibility = compatibility;
  return metadata;
}

function field(fields: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

function textProblem(
  key: string,
  value: unknown,
  max: number,
  required: boolean,
): string | undefined {
  if (value === undefined || value === null) {
    return required ? `the front matter needs a "${key}" field (1–${max} characters)` : undefined;
  }
  if (typeof value !== 'string') return `"${key}" must be a string (1–${max} characters)`;
  const length = codePoints(value);
  if (value.trim() === '') return `"${key}" must not be empty (1–${max} characters)`;
  if (length > max) return `"${key}" is ${length} characters; the limit is ${max}`;
  return undefined;
}

/** Length in Unicode code points (what the limits count). */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
