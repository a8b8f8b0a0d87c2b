/**
 * What `golem studio examples/studio/agents.ts` serves: the support agent, checkpointing in the
 * SQLite file `STUDIO_DB` names (default `studio-example.db` in the current folder).
 */
import { sqliteStore } from 'golem/stores/sqlite';
import { supportAgent } from './support-agent';

/** The run store the agent checkpoints in (and the studio reads). */
export const store = sqliteStore({ path: process.env.STUDIO_DB ?? 'studio-example.db' });

/** The support agent. */
export const support = supportAgent(store);
