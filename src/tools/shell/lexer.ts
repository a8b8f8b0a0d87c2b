/**
 * A bash-equivalent tokeniser for one command line. It accepts only what it can reproduce
 * exactly — words built from plain characters, single quotes, double quotes and backslash
 * escapes, comments, and the list operators `&&`, `||`, `;`, `|` and newline — and refuses
 * everything whose meaning depends on the shell at run time (expansions, substitutions,
 * redirections, background jobs, subshells, CR and other control characters). Refusal is the
 * only failure mode: the caller turns it into a denial, so parse problems fail closed.
 */

/** A run of a word's characters, quoted or not (unquoted glob characters stay active in shell mode). */
export interface WordPart {
  text: string;
  quoted: boolean;
}

/** One word: its value after quote removal, and how it was written. */
export interface Word {
  kind: 'word';
  text: string;
  parts: WordPart[];
}

/** The list operators between commands (a newline separates like `;`). */
export type ListOperator = '&&' | '||' | ';' | '|' | '\n';

/** An operator token. */
export interface Operator {
  kind: 'operator';
  operator: ListOperator;
}

/** A token of the command line. */
export type Token = Word | Operator;

/** The outcome: tokens, or why the line is refused. */
export type LexResult = { ok: true; tokens: Token[] } | { ok: false; reason: string };

class Refused extends Error {}

const refuse = (reason: string): never => {
  throw new Refused(reason);
};

/** Characters bash may treat specially after `$`: a name, a digit, a special parameter. */
const PARAMETER_START = /[A-Za-z0-9_@*#?$!-]/u;

function controlName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function checkControl(c: string): void {
  const code = c.charCodeAt(0);
  if (c === '\r') {
    refuse(
      'the command contains a carriage return (CR); bash does not treat CR as a separator, so it is refused — use a newline or one command per call',
    );
  }
  if ((code < 0x20 && c !== '\t' && c !== '\n') || code === 0x7f) {
    refuse(`the command contains the control character ${controlName(code)}; remove it`);
  }
}

function dollarReason(next: string | undefined, after: string | undefined): string {
  if (next === "'")
    return "ANSI-C quoting $'…' is not allowed; write the characters literally inside single quotes";
  if (next === '"') return 'locale quoting $"…" is not allowed; use plain double quotes';
  if (next === '(' && after === '(') return 'arithmetic expansion $((…)) is not allowed';
  if (next === '(') return 'command substitution $(…) is not allowed';
  if (next === '{') return 'parameter expansion ${…} is not allowed';
  if (next !== undefined && PARAMETER_START.test(next)) {
    return `variable expansion ($${next}…) is not allowed; no variables are expanded — put literal text in single quotes`;
  }
  return 'a "$" would start an expansion; put a literal "$" inside single quotes';
}

class Lexer {
  private readonly tokens: Token[] = [];
  private parts: WordPart[] | undefined;
  private at = 0;

  constructor(private readonly line: string) {}

  run(): Token[] {
    const { line } = this;
    while (this.at < line.length) {
      const c = line[this.at] ?? '';
      if (c === ' ' || c === '\t') {
        this.endWord();
        this.at++;
      } else if (c === '\n') {
        this.endWord();
        this.operator('\n', 1);
      } else if (c === '#' && this.parts === undefined) {
        const end = line.indexOf('\n', this.at);
        this.at = end === -1 ? line.length : end;
      } else if (c === "'") {
        this.singleQuoted();
      } else if (c === '"') {
        this.doubleQuoted();
      } else if (c === '\\') {
        this.escaped();
      } else {
        this.special(c);
      }
    }
    this.endWord();
    return this.tokens;
  }

  private special(c: string): void {
    const operator = this.operatorAt(c);
    if (operator !== undefined) {
      this.operator(operator, operator.length);
      return;
    }
    checkControl(c);
    this.add(c, false);
    this.at++;
  }

  /** The list operator at the cursor; refuses every other shell metacharacter; `undefined` for a word character. */
  private operatorAt(c: string): ListOperator | undefined {
    const next = this.line[this.at + 1];
    switch (c) {
      case '$':
        return refuse(dollarReason(next, this.line[this.at + 2]));
      case '`':
        return refuse('command substitution `…` is not allowed');
      case '<':
      case '>':
        return refuse(
          next === '('
            ? `process substitution ${c}(…) is not allowed`
            : `redirection "${c}" is not allowed; output comes back to you without it`,
        );
      case '&':
        if (next === '&') return '&&';
        return refuse(
          next === '>' ? 'redirection "&>" is not allowed' : 'a background job "&" is not allowed',
        );
      case '|':
        if (next === '|') return '||';
        return next === '&' ? refuse('"|&" (piping stderr) is not allowed') : '|';
      case ';':
        return next === ';' || next === '&'
          ? refuse(`"${c}${next}" is not allowed outside case`)
          : ';';
      case '(':
      case ')':
        return refuse(`"${c}" (a subshell or grouping) is not allowed`);
      default:
        return undefined;
    }
  }

  private singleQuoted(): void {
    const end = this.line.indexOf("'", this.at + 1);
    if (end === -1) refuse('the command has an unterminated single quote');
    const text = this.line.slice(this.at + 1, end);
    for (const c of text) checkControl(c);
    this.add(text, true);
    this.at = end + 1;
  }

  private doubleQuoted(): void {
    let text = '';
    let at = this.at + 1;
    for (;;) {
      const c = this.line[at];
      if (c === undefined) return refuse('the command has an unterminated double quote');
      if (c === '"') break;
      if (c === '\\') {
        const next = this.line[at + 1];
        if (next === '\n') {
          at += 2;
          continue;
        }
        if (next === '$' || next === '`' || next === '"' || next === '\\') {
          text += next;
          at += 2;
          continue;
        }
        text += c;
        at++;
        continue;
      }
      if (c === '$') refuse(dollarReason(this.line[at + 1], this.line[at + 2]));
      if (c === '`') refuse('command substitution `…` is not allowed');
      if (c !== '\n') checkControl(c);
      text += c;
      at++;
    }
    this.add(text, true);
    this.at = at + 1;
  }

  private escaped(): void {
    const next = this.line[this.at + 1];
    // bash keeps a trailing backslash literally on one line but drops it after a quoted newline
    // (it reads the rest as a continuation): ambiguous, so refused.
    if (next === undefined)
      return refuse('a trailing backslash is ambiguous; remove it or quote it');
    this.at += 2;
    if (next === '\n') return; // line continuation
    checkControl(next);
    this.add(next, true);
  }

  private add(text: string, quoted: boolean): void {
    this.parts ??= [];
    const last = this.parts.at(-1);
    if (last !== undefined && last.quoted === quoted) last.text += text;
    else this.parts.push({ text, quoted });
  }

  private endWord(): void {
    if (this.parts === undefined) return;
    const parts = this.parts;
    this.parts = undefined;
    this.tokens.push({ kind: 'word', text: parts.map((p) => p.text).join(''), parts });
  }

  private operator(operator: ListOperator, length: number): void {
    this.endWord();
    this.tokens.push({ kind: 'operator', operator });
    this.at += length;
  }
}

/** Tokenises `line` with bash's quoting rules, refusing anything it cannot reproduce exactly. */
export function tokenize(line: string): LexResult {
  try {
    return { ok: true, tokens: new Lexer(line).run() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
}
