/* eslint-disable @typescript-eslint/no-require-imports -- the peers are loaded by literal name, on first use, so bundlers see them and importing golem/decorators stays cheap */
import type * as ClassTransformer from 'class-transformer';
import type * as ClassValidator from 'class-validator';
import type * as ClassValidatorJsonSchema from 'class-validator-jsonschema';
import type * as JsonSchemaDecorators from 'class-validator-jsonschema/build/decorators';
import type * as TransformerStorageModule from 'class-transformer/cjs/storage';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { checkPeers, type PeerLoader } from '../src/core/kit/missing-peer';

const ENTRY_POINT = 'golem/decorators';

/**
 * The packages `golem/decorators` needs beside golem: its peer dependencies (optional for golem
 * as a whole, required by this entry point), each with its loader. reflect-metadata comes first,
 * so it is in place before anything is decorated. Apps built on Nest or class-validator usually
 * have all but class-validator-jsonschema already.
 */
export const DECORATORS_PEER_LOADERS: Readonly<Record<string, PeerLoader>> = Object.freeze({
  'reflect-metadata': () => require('reflect-metadata') as unknown,
  'class-validator': () => require('class-validator') as unknown,
  'class-transformer': () => require('class-transformer') as unknown,
  'class-validator-jsonschema': () => require('class-validator-jsonschema') as unknown,
});

/** The names of the peers of `golem/decorators`. */
export const DECORATORS_PEERS: readonly string[] = Object.freeze(
  Object.keys(DECORATORS_PEER_LOADERS),
);

/**
 * Whether each peer is installed, without loading it: `require.resolve` finds its files (a few
 * file-system lookups, where loading class-validator and its validators costs ~100 ms). Where it
 * cannot (a bundle that inlined the peer), the peer is loaded instead.
 */
const PRESENCE: Readonly<Record<string, PeerLoader>> = Object.freeze({
  'reflect-metadata': () => present(() => require.resolve('reflect-metadata'), 'reflect-metadata'),
  'class-validator': () => present(() => require.resolve('class-validator'), 'class-validator'),
  'class-transformer': () =>
    present(() => require.resolve('class-transformer'), 'class-transformer'),
  'class-validator-jsonschema': () =>
    present(() => require.resolve('class-validator-jsonschema'), 'class-validator-jsonschema'),
});

function present(resolve: () => string, packageName: string): unknown {
  try {
    return resolve();
  } catch {
    return DECORATORS_PEER_LOADERS[packageName]?.();
  }
}

/** `build()`, run on the first call only; later calls return its value. */
export function memoised<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

/**
 * A memoised loader of one peer module: the first call loads it (a missing install throws the
 * `missing-peer` `ConfigError` of `golem/decorators`, naming the `npm install` command), later
 * calls return the loaded module.
 */
function onFirstUse<T>(packageName: string, load: () => T): () => T {
  return memoised(() => {
    checkPeers(ENTRY_POINT, { [packageName]: load });
    return load();
  });
}

/** class-validator, loaded on first use (compiling a DTO, validating, `@Nullable`). */
export const classValidator: () => typeof ClassValidator = onFirstUse(
  'class-validator',
  () => require('class-validator') as typeof ClassValidator,
);

/** class-transformer, loaded on first use (validating). */
export const classTransformer: () => typeof ClassTransformer = onFirstUse(
  'class-transformer',
  () => require('class-transformer') as typeof ClassTransformer,
);

/** class-transformer's storage of `@Type`, `@Expose`, `@Exclude` records (a deep import; P16). */
export const transformerStorage: () => TransformerStorage = memoised(() => {
  classTransformer();
  return (require('class-transformer/cjs/storage') as typeof TransformerStorageModule)
    .defaultMetadataStorage;
});

/** class-validator-jsonschema, loaded on first use (building a schema, `@Describe`). */
export const jsonSchemaPeer: () => typeof ClassValidatorJsonSchema = onFirstUse(
  'class-validator-jsonschema',
  () => require('class-validator-jsonschema') as typeof ClassValidatorJsonSchema,
);

/** class-validator-jsonschema's decorator records (`getMetadataSchema`), loaded on first use. */
export const jsonSchemaDecorators: () => typeof JsonSchemaDecorators = memoised(() => {
  jsonSchemaPeer();
  return require('class-validator-jsonschema/build/decorators') as typeof JsonSchemaDecorators;
});

// On import: every peer installed, or one ConfigError (missing-peer) naming them all; none loaded
// yet.
checkPeers(ENTRY_POINT, PRESENCE);
