/** Model-facing texts, kept verbatim for transcript parity (spec §0.5). */

/** Closes a successful output-tool call. */
export const RESULT_RECORDED = 'Result recorded.';

/** Output rejection in text mode (a user message). */
export function outputRejectedText(reason: string): string {
  return `Your previous response was rejected: ${reason}. Correct it and respond again.`;
}

/** Output rejection in tool mode (a tool message bound to the output call). */
export function outputToolRejectedText(reason: string, toolName: string): string {
  return `Your result was rejected: ${reason}. Correct the arguments and call ${toolName} again.`;
}

/** Tool rejection (a tool message bound to the call). */
export function toolRejectedText(reason: string): string {
  return `Your tool call was rejected: ${reason}. Correct the arguments and call the tool again.`;
}

/** A denied approval. */
export function deniedText(reason: string | undefined): string {
  return reason === undefined || reason === ''
    ? 'Your tool call was denied. Do not call it again; continue without its result.'
    : `Your tool call was denied: ${reason}. Do not call it again; continue without its result.`;
}

/** The reason text of a rejection (decision D12: an empty reason renders as "(no reason)"). */
export function reasonText(reason: string): string {
  return reason === '' ? '(no reason)' : reason;
}
