import type { Message } from '../contract/message';
import { repairHistory } from './repair';
import { checkedBody } from './checked-history';

/**
 * A request's messages (spec §4.1 step 5): `system` (the resolved instructions; `''` for none) as
 * the one system message, the repaired history without its system messages, then `prompt` when
 * there is one. Internal.
 */
export function assembleMessages(
  system: string,
  history: readonly Message[],
  prompt: Message | undefined,
): Message[] {
  const messages: Message[] = [];
  if (system !== '') messages.push({ role: 'system', content: system });
  // A checked history was repaired when it was made (and cannot change since), and its messages
  // other than system ones wait in an array copied in one step.
  const body = checkedBody(history);
  if (body !== undefined)
    return prompt === undefined ? messages.concat(body) : messages.concat(body, [prompt]);
  const repaired = repairHistory(history);
  for (let i = 0; i < repaired.length; i++) {
    const message = repaired[i] as Message;
    if (message.role !== 'system') messages.push(message);
  }
  if (prompt !== undefined) messages.push(prompt);
  return messages;
}
