import { checkPeers } from '../../core/kit/missing-peer';

/** The packages `golem/tools/webfetch` needs beside golem: html-to-text renders HTML pages. */
export const WEB_FETCH_PEERS: readonly string[] = Object.freeze(['html-to-text']);

checkPeers('golem/tools/webfetch', {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by literal name, so bundlers see it
  'html-to-text': () => require('html-to-text') as unknown,
});
