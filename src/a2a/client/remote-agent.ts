import { Agent, ConfigError } from '../../core/index';
import type { A2AConnection } from './connection-types';
import { peerText } from './failures';
import { A2A_COMPONENT, type A2AAgentOptions } from './options';
import { portableName } from './portable-name';
import { remoteModel } from './remote-model';

const NAME = /^[A-Za-z0-9_-]{1,52}$/;

/**
 * The remote agent as a golem `Agent` with text output: run it directly, or list it in another
 * agent's `handoffs` so a run continues in it. Its "model" is the remote agent (see
 * `remoteModel`); it has no tools or instructions of its own.
 */
export function remoteAgent(connection: A2AConnection, options: A2AAgentOptions = {}): Agent {
  const name = options.name ?? portableName(connection.card.name, 52);
  if (!NAME.test(name)) {
    throw new ConfigError(
      `A2A asAgent: the agent name ${JSON.stringify(name)} must be 1–52 letters, digits, "_" or "-" (it names the transfer tool of a handoff)`,
      { component: A2A_COMPONENT, option: 'name' },
    );
  }
  const description = options.description ?? peerText(connection.card.description, 1000);
  return new Agent<unknown, string>({
    ...options,
    name,
    ...(description !== '' && { description }),
    model: remoteModel(connection),
  });
}
