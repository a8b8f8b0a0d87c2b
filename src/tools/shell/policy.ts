import type { ListOperator, Token, Word } from './lexer';
import { tokenize } from './lexer';

/** Longest command line accepted, in UTF-16 code units. */
export const MAX_COMMAND_LENGTH = 16_384;
/** Most commands one shell-mode line may chain. */
export const MAX_SEGMENTS = 16;
/** Most words in one command line. */
export const MAX_WORDS = 1024;

/** A command name written plainly: no quotes, escapes, globs, `=` or `~`, not an option. */
const PLAIN_NAME = /^[A-Za-z0-9_./+][A-Za-z0-9_./+-]*$/u;

/** Reserved words bash recognises in command position. */
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'function',
  'time',
  'coproc',
  'in',
]);

/** One command of a line and the operator that follows it (`undefined` for the last). */
export interface Segment {
  words: Word[];
  operator: ListOperator | undefined;
}

/** A decision: the parsed command, or why it is denied. */
export type Decision<T> = { ok: true; value: T } | { ok: false; reason: string };

const deny = <T>(reason: string): Decision<T> => ({ ok: false, reason });

/** Why `name` may not be a command (or `undefined` when it is allowed). */
export function commandNameProblem(
  name: Word | string,
  allow: ReadonlySet<string> | undefined,
): string | undefined {
  const text = typeof name === 'string' ? name : name.text;
  const written = typeof name === 'string' || name.parts.every((part) => !part.quoted);
  const shown = JSON.stringify(text);
  if (text.includes('=') && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/u.test(text)) {
    return `variable assignment ${shown} is not allowed`;
  }
  if (!written) {
    return `the command name is written with quotes or escapes (it reads ${shown}); write command names plainly`;
  }
  if (KEYWORDS.has(text)) return `the shell keyword ${shown} is not allowed`;
  if (!PLAIN_NAME.test(text)) {
    return text.startsWith('-')
      ? `the command name ${shown} starts with "-"; the first word must be a program`
      : `the command name ${shown} has characters a plain program name cannot have`;
  }
  if (allow !== undefined && !allow.has(text)) {
    return `${shown} is not an allowed command (allowed: ${[...allow].sort().join(', ')})`;
  }
  return undefined;
}

/** Splits tokens into commands at list operators, refusing empty commands. */
function segmentsOf(tokens: readonly Token[]): Decision<Segment[]> {
  const segments: Segment[] = [];
  let words: Word[] = [];
  for (const token of tokens) {
    if (token.kind === 'word') {
      words.push(token);
      continue;
    }
    if (words.length === 0) {
      if (token.operator === '\n') continue;
      const where =
        segments.length === 0 ? 'at the start' : `after "${printable(segments.at(-1)?.operator)}"`;
      return deny(`"${printable(token.operator)}" ${where} has no command before it`);
    }
    segments.push({ words, operator: token.operator });
    words = [];
  }
  if (words.length > 0) segments.push({ words, operator: undefined });
  const last = segments.at(-1);
  if (last?.operator !== undefined) {
    if (last.operator === ';' || last.operator === '\n') last.operator = undefined;
    else return deny(`the command ends with "${last.operator}" and nothing after it`);
  }
  return { ok: true, value: segments };
}

function printable(operator: ListOperator | undefined): string {
  return operator === '\n' ? '\\n' : (operator ?? '');
}

/** Tokenises and checks the shared limits: length, words, and a non-empty line. */
function lex(command: string): Decision<Segment[]> {
  if (command.length > MAX_COMMAND_LENGTH) {
    return deny(`the command is ${command.length} characters long (limit ${MAX_COMMAND_LENGTH})`);
  }
  const lexed = tokenize(command);
  if (!lexed.ok) return lexed;
  const words = lexed.tokens.filter((token) => token.kind === 'word').length;
  if (words > MAX_WORDS) return deny(`the command has ${words} words (limit ${MAX_WORDS})`);
  const split = segmentsOf(lexed.tokens);
  if (!split.ok) return split;
  if (split.value.length === 0) return deny('the command is empty');
  return split;
}

/**
 * Argv mode: one program and its arguments from a command line tokenised like bash. List
 * operators are refused (no shell runs to interpret them); the program must be allowed.
 */
export function parseArgvCommand(
  command: string,
  allow: ReadonlySet<string> | undefined,
): Decision<string[]> {
  const split = lex(command);
  if (!split.ok) return split;
  const [first, second] = split.value;
  if (first === undefined) return deny('the command is empty');
  if (second !== undefined || first.operator !== undefined) {
    return deny(
      `"${printable(first.operator)}" chains commands, but no shell runs here: send one program and its arguments per call (quote the characters to pass them literally)`,
    );
  }
  const [name] = first.words;
  const problem = name === undefined ? 'the command is empty' : commandNameProblem(name, allow);
  if (problem !== undefined) return deny(problem);
  return { ok: true, value: first.words.map((word) => word.text) };
}

/**
 * Shell mode: a list of commands joined by `&&`, `||`, `;`, `|` or newlines, at most
 * {@link MAX_SEGMENTS}, every command name allowed. Returns the canonical line handed to
 * `/bin/sh -c`: every argument re-quoted so the shell sees exactly what was checked (unquoted glob
 * characters `*`, `?`, `[`, `]` stay active; command names are plain words and stay bare).
 */
export function parseShellCommand(command: string, allow: ReadonlySet<string>): Decision<string> {
  const split = lex(command);
  if (!split.ok) return split;
  const segments = split.value;
  if (segments.length > MAX_SEGMENTS) {
    return deny(
      `the command chains ${segments.length} commands (limit ${MAX_SEGMENTS}); split the work into several calls`,
    );
  }
  for (const segment of segments) {
    const [name] = segment.words;
    const problem = name === undefined ? 'empty command' : commandNameProblem(name, allow);
    if (problem !== undefined) return deny(problem);
  }
  return { ok: true, value: canonical(segments) };
}

const GLOB = new Set(['*', '?', '[', ']']);

/** A word for `sh`: quoted runs single-quoted, unquoted glob characters left bare. */
export function quoteWord(word: Word): string {
  let out = '';
  let run = '';
  let open = false;
  const flush = (): void => {
    if (open) out += `'${run.replaceAll("'", "'\\''")}'`;
    run = '';
    open = false;
  };
  for (const part of word.parts) {
    for (const c of part.text) {
      if (!part.quoted && GLOB.has(c)) {
        flush();
        out += c;
      } else {
        run += c;
        open = true;
      }
    }
  }
  flush();
  return out === '' ? "''" : out;
}

function canonical(segments: readonly Segment[]): string {
  return segments
    .map((segment) => {
      // The command name passed the plain-name check, so it is safe (and clearer) bare.
      const words = segment.words
        .map((word, i) => (i === 0 ? word.text : quoteWord(word)))
        .join(' ');
      const operator = segment.operator === '\n' ? ';' : segment.operator;
      return operator === undefined ? words : `${words} ${operator}`;
    })
    .join(' ');
}
