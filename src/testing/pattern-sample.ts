/**
 * Best-effort generation of a string matching a JSON Schema `pattern` (an ECMAScript regular
 * expression). Supported: literals and escapes (`\d \w \s \D \W \S \n \t \xHH \uHHHH`), `.`,
 * character classes (negated ones too), groups (`(…)`, `(?:…)`, `(?<name>…)`), alternation (the
 * first branch is taken), anchors and the quantifiers `? * + {n} {n,} {n,m}` (lazy or not).
 * Look-arounds, back-references and Unicode property escapes are not. The result is always checked
 * against the real regular expression, so an unsupported construct yields `undefined`, never a
 * wrong string.
 */
export function sampleFromPattern(
  pattern: string,
  minLength: number,
  maxLength: number,
): string | undefined {
  const regex = compile(pattern);
  if (regex === undefined) return undefined;
  let node: Node;
  try {
    const parser = new Parser(pattern);
    node = parser.parse();
  } catch {
    return undefined;
  }
  let previous = -1;
  for (let extra = 0; extra <= minLength + 1; extra++) {
    const text = render(node, extra);
    const length = Array.from(text).length;
    if (length >= minLength) {
      return length <= maxLength && regex.test(text) ? text : undefined;
    }
    if (length === previous) return undefined;
    previous = length;
  }
  return undefined;
}

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

class Unsupported extends Error {}

const EMPTY: Node = { kind: 'text', text: '' };

class Parser {
  private pos = 0;

  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.source.length) throw new Unsupported('unbalanced pattern');
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] ?? EMPTY) : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      items.push(this.quantified(this.atom()));
    }
    return { kind: 'seq', items };
  }

  private quantified(node: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Number.POSITIVE_INFINITY;
    } else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (match === null) return node;
      this.pos += match[0].length;
      min = Number(match[1]);
      const upper = match[3];
      max =
        match[2] === undefined
          ? min
          : upper === undefined || upper === ''
            ? Number.POSITIVE_INFINITY
            : Number(upper);
    } else {
      return node;
    }
    if (this.peek() === '?') this.pos++;
    return { kind: 'repeat', node, min, max };
  }

  private atom(): Node {
    const c = this.next();
    switch (c) {
      case '^':
      case '$':
        return EMPTY;
      case '.':
        return { kind: 'text', text: 'a' };
      case '(':
        return this.group();
      case '[':
        return this.characterClass();
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        throw new Unsupported('nothing to repeat');
      default:
        return { kind: 'text', text: c };
    }
  }

  private group(): Node {
    if (this.peek() === '?') {
      const rest = this.source.slice(this.pos);
      if (rest.startsWith('?:')) this.pos += 2;
      else {
        const named = /^\?<([A-Za-z_$][\w$]*)>/.exec(rest);
        if (named === null) throw new Unsupported('look-around');
        this.pos += named[0].length;
      }
    }
    const node = this.alternation();
    if (this.next() !== ')') throw new Unsupported('unclosed group');
    return node;
  }

  private characterClass(): Node {
    const start = this.pos - 1;
    if (this.peek() === '^') this.pos++;
    if (this.peek() === ']') this.pos++;
    for (;;) {
      const c = this.next();
      if (c === '\\') this.next();
      else if (c === ']') break;
    }
    const source = this.source.slice(start, this.pos);
    const regex = compile(`^${source}$`);
    const found = regex === undefined ? undefined : CLASS_CANDIDATES.find((ch) => regex.test(ch));
    if (found === undefined) throw new Unsupported('character class');
    return { kind: 'text', text: found };
  }

  private escape(): Node {
    const c = this.next();
    const simple = ESCAPES[c];
    if (simple !== undefined) return { kind: 'text', text: simple };
    if (c === 'x' || c === 'u') {
      const braced = c === 'u' ? /^\{([0-9A-Fa-f]{1,6})\}/.exec(this.source.slice(this.pos)) : null;
      const fixed = new RegExp(`^[0-9A-Fa-f]{${c === 'x' ? 2 : 4}}`).exec(
        this.source.slice(this.pos),
      );
      const match = braced ?? fixed;
      if (match === null) throw new Unsupported('escape');
      this.pos += match[0].length;
      return { kind: 'text', text: String.fromCodePoint(parseInt(match[1] ?? match[0], 16)) };
    }
    if (/[1-9kpPc]/.test(c)) throw new Unsupported(`\\${c}`);
    return { kind: 'text', text: c };
  }

  private peek(): string | undefined {
    const code = this.source.codePointAt(this.pos);
    return code === undefined ? undefined : String.fromCodePoint(code);
  }

  private next(): string {
    const c = this.peek();
    if (c === undefined) throw new Unsupported('unexpected end');
    this.pos += c.length;
    return c;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  d: '0',
  D: 'a',
  w: 'a',
  W: '-',
  s: ' ',
  S: 'a',
  b: '',
  B: '',
  n: '\n',
  r: '\r',
  t: '\t',
  f: '\f',
  v: '\v',
  0: '\0',
};

const CLASS_CANDIDATES: readonly string[] = (() => {
  const preferred = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_-';
  const rest: string[] = [];
  for (let code = 0x20; code < 0x7f; code++) {
    const ch = String.fromCharCode(code);
    if (!preferred.includes(ch)) rest.push(ch);
  }
  return [...Array.from(preferred), ...rest, 'é', 'λ', '中'];
})();

function render(node: Node, extra: number): string {
  switch (node.kind) {
    case 'text':
      return node.text;
    case 'seq':
      return node.items.map((item) => render(item, extra)).join('');
    case 'alt':
      return render(node.options[0] ?? EMPTY, extra);
    case 'repeat': {
      const count = Math.min(node.max, node.min + extra);
      return render(node.node, extra).repeat(count);
    }
  }
}

function compile(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next flag set
    }
  }
  return undefined;
}
