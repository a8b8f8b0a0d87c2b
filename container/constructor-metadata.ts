/**
 * Constructor injection without decorator metadata. Inversify resolves a constructor parameter
 * from its `design:paramtypes` entry (when that names a class) or from an `@inject(Token)` on it.
 * tsx, esbuild and Vite ≤ 7 (Vitest) emit no `design:paramtypes`, so there every parameter needs
 * `@inject`; a parameter without one is reported here as a `missing-metadata`
 * container `ConfigError` naming the class, the parameter and the fix — when the agent is bound,
 * and again (wrapping Inversify's own "missing metadata" error) for any class met while
 * resolving it.
 */
import type { ConfigError } from '../src/core/index';
import { containerError } from './errors';

/** Where Inversify records a class's injection metadata (`@inject`, `@injectable`). */
const INVERSIFY_CLASS_METADATA = '@inversifyjs/core/classMetadataReflectKey';

/** Inversify brands its errors with this registry symbol; `kind` 1 is a missing injection decorator. */
const INVERSIFY_ERROR = Symbol.for('@inversifyjs/core/InversifyCoreError');
const MISSING_INJECTION_DECORATOR = 1;

const EXAMPLE = 'constructor(@inject(WeatherService) weather: WeatherService)';

/** The fix when the toolchain emitted no `design:paramtypes`. */
const TOOLCHAIN_FIX =
  'the toolchain did not emit decorator metadata (design:paramtypes), as tsx, esbuild and ' +
  `Vite ≤ 7 (Vitest) do not: decorate every constructor parameter with @inject(Token) — ${EXAMPLE} ` +
  '— or compile with "emitDecoratorMetadata" (tsc, SWC, Vite 8)';

/** The fix when metadata was emitted but names no class (an interface, a union, a primitive). */
const TYPE_FIX =
  'its type is reflected as a built-in (an interface, a union, a primitive or an `import type` ' +
  'class is): bind a token (a Symbol or an abstract class) and decorate the parameter with ' +
  '@inject(TOKEN), or type it with a class imported as a value';

/** The fix when Inversify reports a class met during resolution (either cause may apply). */
const EITHER_FIX =
  'decorate each such parameter with @inject(Token) — needed for every parameter where the ' +
  'toolchain emits no decorator metadata (tsx, esbuild, Vite ≤ 7 (Vitest)), and for parameters ' +
  'typed by an interface, a union or a primitive — or compile with "emitDecoratorMetadata" ' +
  '(tsc, SWC, Vite 8)';

/**
 * Throws a `missing-metadata` container `ConfigError` when `target` takes constructor arguments
 * Inversify has nothing to inject by: no `@inject`, and no `design:paramtypes` entry naming a
 * class. Call it after the class is made injectable (Inversify then has read the metadata). Does
 * nothing when Inversify's record has an unknown shape (its own error is then wrapped by
 * {@link missingMetadataError}).
 */
export function checkConstructorMetadata(
  target: abstract new (...args: never[]) => object,
  className: string,
): void {
  const arity = target.length;
  if (arity === 0) return;
  const injected = injectedIndexes(target);
  if (injected === undefined) return;
  const missing: number[] = [];
  for (let index = 0; index < arity; index++) if (!injected.has(index)) missing.push(index);
  if (missing.length === 0) return;
  const names = parameterNames(target, arity);
  const listed = missing.map((index) => describeParameter(index, names)).join(', ');
  const noun = missing.length === 1 ? 'parameter' : 'parameters';
  const reflected = Reflect.hasOwnMetadata('design:paramtypes', target);
  throw containerError(
    `${className}: constructor ${noun} ${listed} cannot be injected; ${reflected ? TYPE_FIX : TOOLCHAIN_FIX}`,
    { reason: 'missing-metadata', agent: className },
  );
}

/**
 * Inversify's "missing metadata" error met while binding a class or resolving the agent class
 * `agent`, as a `missing-metadata` container `ConfigError` naming the class Inversify could not
 * construct (the agent or one of its dependencies) and the fix; `undefined` for any other error.
 */
export function missingMetadataError(error: unknown, agent?: string): ConfigError | undefined {
  if (!isMissingInjection(error)) return undefined;
  const message = (error as { message?: unknown }).message;
  const text = typeof message === 'string' ? message : '';
  const type = /on type "([^"]*)"/.exec(text)?.[1] ?? 'a class';
  const indexes = /constructor indexes ((?:"\d+"(?:, )?)+)/.exec(text)?.[1];
  const counts = /requires at least (\d+) arguments, found (\d+)/.exec(text);
  let where = 'some constructor parameters cannot be injected';
  if (indexes !== undefined) {
    where = `constructor parameters ${indexes.replaceAll('"', '')} cannot be injected`;
  } else if (counts !== null) {
    const [, takes = '?', found = '?'] = counts;
    where = `its constructor takes ${takes} argument${takes === '1' ? '' : 's'} but only ${found} can be injected`;
  }
  const subject = agent === undefined || type === agent ? type : `${type} (needed by ${agent})`;
  return containerError(`${subject}: ${where}; ${EITHER_FIX}`, {
    reason: 'missing-metadata',
    ...(agent !== undefined && { agent }),
    cause: error,
  });
}

function isMissingInjection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  try {
    const record = error as Record<string | symbol, unknown>;
    return record[INVERSIFY_ERROR] === true && record.kind === MISSING_INJECTION_DECORATOR;
  } catch {
    return false; // a hostile getter
  }
}

/** The constructor indexes Inversify has an injection record for; `undefined` if unreadable. */
function injectedIndexes(target: object): Set<number> | undefined {
  const record: unknown = Reflect.getOwnMetadata(INVERSIFY_CLASS_METADATA, target);
  if (record === undefined) return new Set();
  if (typeof record !== 'object' || record === null) return undefined;
  const args = (record as { constructorArguments?: unknown }).constructorArguments;
  if (!Array.isArray(args)) return undefined;
  const indexes = new Set<number>();
  // A sparse array: indexes without a record are holes, so iterate by index.
  for (let index = 0; index < args.length; index++) {
    if (args[index] !== undefined) indexes.add(index);
  }
  return indexes;
}

/** The constructor's parameter names, read from its source; `undefined` when not plain names. */
function parameterNames(target: object, arity: number): string[] | undefined {
  let source: string;
  try {
    source = Function.prototype.toString.call(target);
  } catch {
    return undefined;
  }
  const list = /\bconstructor\s*\(([^)]*)\)/.exec(source)?.[1];
  if (list === undefined) return undefined;
  const names = list
    .split(',')
    .map((part) => part.split('=')[0]?.trim() ?? '')
    .filter((name) => name !== '');
  if (names.length < arity || !names.every((name) => /^[A-Za-z_$][\w$]*$/.test(name))) {
    return undefined;
  }
  return names;
}

function describeParameter(index: number, names: readonly string[] | undefined): string {
  const name = names?.[index];
  return name === undefined ? `#${index}` : `#${index} (${name})`;
}
