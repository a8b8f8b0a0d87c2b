// class-transformer keeps its metadata storage (the `@Type` records) in a module without a
// public export or typings (platform note P16); this declares the deep import.
declare module 'class-transformer/cjs/storage' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
  export const defaultMetadataStorage: MetadataStorage;
}
