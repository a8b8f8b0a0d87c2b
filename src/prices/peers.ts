/* eslint-disable @typescript-eslint/no-require-imports -- the peer is loaded by literal name, so bundlers see it */
import { checkPeers } from '../core/kit/missing-peer';

checkPeers('golem/prices', {
  '@pydantic/genai-prices': () => require('@pydantic/genai-prices') as unknown,
});
