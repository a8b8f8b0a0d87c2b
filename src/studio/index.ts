/**
 * `golem/studio` (not yet an entry point): the server of Golem Studio.
 * @packageDocumentation
 */
export { createStudio, type Studio } from './server';
export type { StudioAgent, StudioOptions, StudioErrorInfo } from './studio-options';
export type * from './api-types';
