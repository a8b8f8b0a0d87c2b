/** The run-store contract against the in-memory store. */
import { memoryStore } from 'golem/stores/memory';
import { cachePointsContract } from './support/contract-cache-points';
import { recoveryContract } from './support/contract-recovery';
import { runsContract } from './support/contract-runs';
import { writesContract } from './support/contract-writes';
import { ownersContract } from './support/contract-owners';
import { conversationOrderContract } from './support/contract-conversation-order';

const factory = (clock: { now: () => number }) =>
  Promise.resolve({ store: memoryStore({ clock: clock.now }), cleanup: () => Promise.resolve() });

runsContract('memory', factory);
recoveryContract('memory', factory);
cachePointsContract('memory', factory);
writesContract('memory', factory);
ownersContract('memory', factory);
conversationOrderContract('memory', factory);
