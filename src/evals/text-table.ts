/**
 * Plain-text tables for terminal reports: columns padded to their widest cell, numbers aligned
 * right, the first column shortened with `…` when the table is wider than the terminal. Widths
 * ignore ANSI colour codes, so cells may be coloured before they are laid out.
 */

/** One column of a {@link textTable}. */
export interface TextColumn {
  readonly header: string;
  /** `right` for numbers; default `left`. */
  readonly align?: 'left' | 'right';
}

// eslint-disable-next-line no-control-regex -- matching ANSI escapes is the point
const ANSI = /\u001b\[[0-9;]*m/g;
// eslint-disable-next-line no-control-regex -- untrusted control characters are replaced
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/** The visible width of a cell: code points, ANSI codes left out. */
export function visibleWidth(text: string): number {
  return Array.from(text.replace(ANSI, '')).length;
}

/**
 * Untrusted text (model output, reasons, error messages) made safe for one table cell or line:
 * control characters (newlines, escapes that could drive the terminal) become one space, and
 * text longer than `max` code points ends in `…`.
 */
export function terminalText(text: string, max = Number.POSITIVE_INFINITY): string {
  return truncate(text.replace(CONTROL, ' ').trim(), max);
}

/** `text` cut to `max` code points, the last one `…` when cut. */
export function truncate(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * Lays out `rows` under `columns`, two spaces between columns, every line indented by `indent`.
 * When `width` is given and the table is wider, the columns listed in `shrink` (default the
 * first, down to 8) are shortened to fit, in that order, each down to its minimum (a shortened
 * cell loses its colour).
 */
export function textTable(
  columns: readonly TextColumn[],
  rows: readonly (readonly string[])[],
  options: {
    readonly width?: number;
    readonly indent?: string;
    /** `[column, minimum width]` pairs, tried in order. */
    readonly shrink?: readonly (readonly [number, number])[];
  } = {},
): string {
  const indent = options.indent ?? '  ';
  const cells = rows.map((row) => columns.map((_, index) => row[index] ?? ''));
  const widths = columns.map((column, index) =>
    Math.max(visibleWidth(column.header), ...cells.map((row) => visibleWidth(row[index] ?? ''))),
  );
  if (options.width !== undefined) {
    for (const [column, minimum] of options.shrink ?? [[0, 8]]) {
      const current = widths[column];
      if (current === undefined) continue;
      const total =
        indent.length + widths.reduce((sum, w) => sum + w, 0) + 2 * (columns.length - 1);
      const over = total - options.width;
      if (over <= 0) break;
      const fitted = Math.max(minimum, current - over);
      if (fitted >= current) continue;
      widths[column] = fitted;
      for (const row of cells) {
        const cell = row[column] ?? '';
        if (visibleWidth(cell) > fitted) row[column] = truncate(cell.replace(ANSI, ''), fitted);
      }
    }
  }
  const line = (row: readonly string[]): string =>
    indent +
    columns
      .map((column, index) => pad(row[index] ?? '', widths[index] ?? 0, column.align ?? 'left'))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...cells.map(line)].join('\n');
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const gap = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return align === 'right' ? gap + text : text + gap;
}

/** ANSI styling for terminal text; each function is the identity when colour is off. */
export interface Painter {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly green: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
}

/** A {@link Painter} that colours when `color` is true. */
export function painter(color: boolean): Painter {
  const wrap =
    (open: number, close: number) =>
    (text: string): string =>
      color ? `\u001b[${String(open)}m${text}\u001b[${String(close)}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    green: wrap(32, 39),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
  };
}
