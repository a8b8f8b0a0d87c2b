/**
 * Hostile values to throw at the framework: objects whose getters throw, proxies whose traps
 * throw (or that are revoked), frozen objects that cannot become text, null-prototype objects,
 * symbols and functions. Every read that fails throws a {@link HostileRead}, so a test can prove
 * that no inspection failure ever escapes in place of the value itself.
 */

/** What a hostile getter or trap throws. It must never be what a run rejects with. */
export class HostileRead extends Error {
  constructor(what: string) {
    super(`hostile read of ${what}`);
    this.name = 'HostileRead';
  }
}

/** A getter that throws a {@link HostileRead} naming `key`. */
function throwing(key: string): PropertyDescriptor {
  return {
    get() {
      throw new HostileRead(key);
    },
    configurable: false,
  };
}

const BRAND = Symbol.for('golem.error.kind');

/** A proxy over `target` every one of whose traps throws. */
function trapThrowingProxy(target: object): object {
  const trap = (name: string) => () => {
    throw new HostileRead(`proxy trap ${name}`);
  };
  return new Proxy(target, {
    get: trap('get'),
    has: trap('has'),
    getPrototypeOf: trap('getPrototypeOf'),
    ownKeys: trap('ownKeys'),
    getOwnPropertyDescriptor: trap('getOwnPropertyDescriptor'),
    defineProperty: trap('defineProperty'),
    set: trap('set'),
    isExtensible: trap('isExtensible'),
    preventExtensions: trap('preventExtensions'),
    setPrototypeOf: trap('setPrototypeOf'),
    deleteProperty: trap('deleteProperty'),
  });
}

/** One kind of hostile value; `make` builds a fresh one. */
export interface HostileKind {
  readonly name: string;
  readonly make: () => unknown;
}

/** Every kind, for `test.each` and `fc.constantFrom`. */
export const HOSTILE_KINDS: readonly HostileKind[] = [
  {
    name: 'an Error whose message and name getters throw',
    make: () =>
      Object.defineProperties(new Error('hidden'), {
        message: throwing('message'),
        name: throwing('name'),
      }),
  },
  {
    name: 'an Error whose cause getter throws',
    make: () => Object.defineProperty(new Error('visible'), 'cause', throwing('cause')),
  },
  {
    name: 'an Error whose classification getters throw (retryable, retryAfter, brand)',
    make: () =>
      Object.defineProperties(new Error('unclassifiable'), {
        retryable: throwing('retryable'),
        retryAfter: throwing('retryAfter'),
        [BRAND]: throwing('brand'),
        errors: throwing('errors'),
      }),
  },
  {
    name: 'an AggregateError whose errors getter throws',
    make: () => Object.defineProperty(new AggregateError([], 'many'), 'errors', throwing('errors')),
  },
  {
    name: 'a revoked Proxy',
    make: () => {
      const { proxy, revoke } = Proxy.revocable(new Error('revoked'), {});
      revoke();
      return proxy;
    },
  },
  {
    name: 'a Proxy whose every trap throws',
    make: () => trapThrowingProxy(new Error('trapped')),
  },
  {
    name: 'a frozen object with throwing toString, Symbol.toPrimitive, toJSON and message',
    make: () =>
      Object.freeze(
        Object.defineProperties(
          {},
          {
            toString: {
              value: () => {
                throw new HostileRead('toString');
              },
            },
            [Symbol.toPrimitive]: {
              value: () => {
                throw new HostileRead('Symbol.toPrimitive');
              },
            },
            toJSON: {
              value: () => {
                throw new HostileRead('toJSON');
              },
            },
            message: throwing('message'),
            name: throwing('name'),
          },
        ),
      ),
  },
  {
    name: 'a null-prototype object',
    make: () => Object.assign(Object.create(null) as object, { code: 'E_NULL_PROTO' }),
  },
  { name: 'a thrown Symbol', make: () => Symbol('hostile') },
  {
    name: 'a thrown function with a throwing name and toString',
    make: () =>
      Object.defineProperties(function hostileFunction() {}, {
        name: throwing('name'),
        toString: {
          value: () => {
            throw new HostileRead('toString');
          },
        },
      }),
  },
];

/**
 * Whether a {@link HostileRead} is reachable from `error` through `cause` own data properties
 * (never invoking a getter or a trap, so it is safe on the hostile values themselves).
 */
export function containsHostileRead(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 20; depth++) {
    try {
      if (current instanceof HostileRead) return true;
      if (!(current instanceof Error)) return false;
      const descriptor = Object.getOwnPropertyDescriptor(current, 'cause');
      if (descriptor === undefined || !('value' in descriptor)) return false;
      current = descriptor.value;
    } catch {
      return false; // a hostile value itself, which is not a HostileRead
    }
  }
  return false;
}
