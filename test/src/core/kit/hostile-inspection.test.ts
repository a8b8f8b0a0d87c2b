/**
 * Describing and classifying errors never throws, whatever was thrown: getters that throw, revoked
 * or trap-throwing proxies, frozen objects that cannot become text, null-prototype objects,
 * symbols and functions — alone, or nested in causes and aggregates.
 */
import fc from 'fast-check';
import {
  CancelledError,
  FallbackModel,
  GolemError,
  ModelHTTPError,
  ModelRetry,
  RunError,
  ToolError,
  describeError,
  errorChain,
  findError,
  isCancellation,
  isDeadlineExceeded,
  isRetryable,
  retryAfterOf,
  type Model,
} from 'golem';
import { cancellationError } from '../../../../src/core/errors/cancellation';
import { showValue } from '../../../../src/core/kit/safe-inspect';
import { HOSTILE_KINDS, type HostileKind } from '../../../support/hostile-values';
import { AttemptsExhaustedError, FallbackExhaustedError } from '../../../support/internal-errors';

const kinds = HOSTILE_KINDS.map((kind) => [kind.name, kind] as const);

/** Every inspection the framework applies to a thrown value. */
function inspectAll(value: unknown): void {
  expect(typeof describeError(value)).toBe('string');
  expect(typeof showValue(value)).toBe('string');
  [...errorChain(value)].forEach(() => undefined);
  findError(value, (e): e is ModelRetry => ModelRetry.is(e));
  isRetryable(value);
  retryAfterOf(value);
  isCancellation(value);
  isDeadlineExceeded(value);
  GolemError.isGolemError(value);
  ModelRetry.is(value);
  RunError.is(value);
}

describe('one hostile value', () => {
  test.each(kinds)('%s: every inspection returns instead of throwing', (_name, kind) => {
    expect(() => {
      inspectAll(kind.make());
    }).not.toThrow();
  });

  test.each(kinds)('%s: it is classified as nothing in particular', (_name, kind) => {
    const value = kind.make();
    expect(isRetryable(value)).toBe(false);
    expect(retryAfterOf(value)).toBeUndefined();
    expect(isCancellation(value)).toBe(false);
    expect(GolemError.isGolemError(value)).toBe(false);
    expect(findError(value, (e): e is ModelRetry => ModelRetry.is(e))).toBeUndefined();
  });

  test.each(kinds)('%s: errorChain yields the value itself first', (_name, kind) => {
    const value = kind.make();
    const [first] = errorChain(value);
    expect(first === value).toBe(true);
  });

  test.each(kinds)('%s: wrapping errors keep it as their cause and build a message', (_n, kind) => {
    const value = kind.make();
    const wrappers = [
      new RunError('tool', value),
      new ToolError('probe', 'call-1', value),
      new AttemptsExhaustedError('model', 3, value),
      new CancelledError('stopped', { cause: value }),
    ];
    for (const wrapper of wrappers) {
      expect(wrapper.cause === value).toBe(true);
      expect(typeof wrapper.message).toBe('string');
    }
  });

  test('descriptions say what could be read, and that a message could not', () => {
    const [messageGetter, , , , revoked, , frozen, nullProto, symbol, fn] = HOSTILE_KINDS.map(
      (kind: HostileKind) => describeError(kind.make()),
    );
    expect(messageGetter).toBe('Error (no readable message)');
    expect(revoked).toBe('object');
    expect(frozen).toBe('object');
    expect(nullProto).toBe('{"code":"E_NULL_PROTO"}');
    expect(symbol).toBe('Symbol(hostile)');
    expect(fn).toBe('function');
    expect(new RunError('decode', HOSTILE_KINDS[0]?.make()).message).toBe(
      'golem: decode stage: Error (no readable message)',
    );
  });

  test('an aborted signal whose reason is hostile gives a CancelledError caused by that reason', () => {
    for (const kind of HOSTILE_KINDS) {
      const reason = kind.make();
      const controller = new AbortController();
      controller.abort(reason);
      const error = cancellationError(controller.signal);
      expect(CancelledError.is(error)).toBe(true);
      expect(error.cause === reason).toBe(true);
    }
  });
});

describe('hostile values among readable errors', () => {
  test.each(kinds)('%s: a retryable error beside it in an aggregate still decides', (_n, kind) => {
    const http = new ModelHTTPError({ status: 503, provider: 'p', retryAfter: 1500 });
    const aggregate = new AggregateError([kind.make(), http], 'both');
    expect(isRetryable(aggregate)).toBe(true);
    expect(retryAfterOf(aggregate)).toBe(1500);
  });

  test.each(kinds)('%s: an HTTP error caused by it classifies by its own status', (_n, kind) => {
    expect(
      isRetryable(new ModelHTTPError({ status: 429, provider: 'p', cause: kind.make() })),
    ).toBe(true);
    expect(
      isRetryable(new ModelHTTPError({ status: 400, provider: 'p', cause: kind.make() })),
    ).toBe(false);
  });

  test('a FallbackModel whose members all throw hostile values reports them all, in order', async () => {
    const values = HOSTILE_KINDS.map((kind) => kind.make());
    const members: Model[] = values.map((value) => ({
      generate: () => {
        throw value;
      },
    }));
    const fallback = new FallbackModel(members, { shouldFallback: () => true });
    const error = await fallback.generate({ messages: [], tools: [] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(FallbackExhaustedError.is(error)).toBe(true);
    const exhausted = error as FallbackExhaustedError;
    expect(exhausted.errors.length).toBe(values.length);
    exhausted.errors.forEach((e, i) => {
      expect(e === values[i]).toBe(true);
    });
    expect(exhausted.retryable).toBe(false);
  });
});

/**
 * A recipe for a value: hostile values and ordinary ones, nested in causes, aggregates and Golem
 * errors. Recipes, not values, are generated (fast-check itself would inspect a hostile value).
 */
type Recipe =
  | { hostile: number }
  | { plain: unknown }
  | { wrap: 'error' | 'http' | 'run' | 'retry'; cause: Recipe }
  | { aggregate: Recipe[] };

const recipe: fc.Arbitrary<Recipe> = fc.letrec<{ recipe: Recipe }>((tie) => ({
  recipe: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.nat({ max: HOSTILE_KINDS.length - 1 }).map((hostile) => ({ hostile })),
    fc.anything().map((plain) => ({ plain })),
    fc.record({
      wrap: fc.constantFrom('error' as const, 'http' as const, 'run' as const, 'retry' as const),
      cause: tie('recipe'),
    }),
    fc.array(tie('recipe'), { maxLength: 3 }).map((aggregate) => ({ aggregate })),
  ),
})).recipe;

function build(r: Recipe): unknown {
  if ('hostile' in r) return HOSTILE_KINDS[r.hostile]?.make();
  if ('plain' in r) return r.plain;
  if ('aggregate' in r) return new AggregateError(r.aggregate.map(build), 'many');
  const cause = build(r.cause);
  switch (r.wrap) {
    case 'error':
      return new Error('wrapped', { cause });
    case 'http':
      return new ModelHTTPError({ status: 503, provider: 'p', cause });
    case 'run':
      return new RunError('tool', cause);
    case 'retry':
      return new ModelRetry('fix it', { cause });
  }
}

test('property: no nesting of hostile values makes describing or classifying throw', () => {
  fc.assert(
    fc.property(recipe, (r) => {
      inspectAll(build(r));
    }),
    { numRuns: 300 },
  );
});
