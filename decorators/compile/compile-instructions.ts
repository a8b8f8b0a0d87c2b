import { agentDefinitionError, classNameOf, memberName } from '../errors';
import { classChain, METADATA_KEYS, readOwn, type InstructionsRecord } from '../metadata';
import type { InstructionsPiece } from './definition';
import { methodOf } from './member';

/**
 * The instructions of `ctor` and its bases, in order: each class from the root-most base down,
 * its `@Instructions(text)` (top to bottom) then its `@Instructions()` methods (declaration
 * order). A subclass re-decorating a base's instructions method replaces it in place.
 */
export function compileInstructions(ctor: object): InstructionsPiece[] {
  const pieces: InstructionsPiece[] = [];
  const methods = new Map<string | symbol, number>();
  for (const owner of classChain(ctor)) {
    const className = classNameOf(owner);
    const records = (readOwn(METADATA_KEYS.instructions, owner) ??
      []) as readonly InstructionsRecord[];
    for (const record of records) {
      if (record.kind === 'text') {
        pieces.push({ kind: 'text', text: checkText(record.text, className) });
        continue;
      }
      methodOf(owner, record.member, record.isStatic, '@Instructions()');
      const piece: InstructionsPiece = {
        kind: 'method',
        member: record.member,
        declaredBy: className,
      };
      const existing = methods.get(record.member);
      if (existing === undefined) {
        methods.set(record.member, pieces.length);
        pieces.push(piece);
      } else pieces[existing] = piece;
    }
  }
  return pieces.map((piece) => Object.freeze(piece));
}

function checkText(text: unknown, className: string): string {
  if (typeof text === 'string') return text;
  throw agentDefinitionError(
    'instructions-not-string',
    text === undefined
      ? '@Instructions() on the class has no text'
      : `@Instructions(text) got ${typeof text}, not a string`,
    {
      className,
      hint: "pass the text, @Instructions('You are…'), or put @Instructions() on a method for dynamic instructions",
    },
  );
}

/**
 * Checks what an instructions method returned: text, or nothing (`undefined`/`null`, which adds
 * nothing). Anything else is an `instructions-not-string` error naming the method.
 */
export function instructionsText(
  value: unknown,
  className: string,
  member: string | symbol,
): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  throw agentDefinitionError(
    'instructions-not-string',
    `the instructions method returned ${typeof value}, not a string`,
    {
      className,
      member: memberName(member),
      hint: 'return the instructions text (or "" for none)',
    },
  );
}
