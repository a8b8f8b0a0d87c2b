export type { OutputDecoder, DecodeContext } from './decoder';
export { decodeText } from './decode-text';
export type { OutputValidator } from './decode-json';
export { decodeJSON } from './decode-json';
export type { SchemaOutputOptions, NativeSchemaOutput, ToolSchemaOutput } from './schema-output';
export { schemaOutput, DEFAULT_OUTPUT_TOOL_NAME } from './schema-output';
export type { PartialJson } from './partial-json';
export { parsePartialJson } from './partial-json';
