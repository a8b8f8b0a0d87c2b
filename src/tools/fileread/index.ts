/** The `read_file` common tool (`golem/tools/fileread`). */
export type { FileReadOptions } from './options';
export { fileRead, READ_FILE_TOOL } from './file-read';
export { sniffContentType, isReadableText } from './sniff';
