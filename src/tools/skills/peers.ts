import { checkPeers } from '../../core/kit/missing-peer';

/** The packages `golem/tools/skills` needs beside golem: yaml parses `SKILL.md` front matter. */
export const SKILLS_PEERS: readonly string[] = Object.freeze(['yaml']);

checkPeers('golem/tools/skills', {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by literal name, so bundlers see it
  yaml: () => require('yaml') as unknown,
});
