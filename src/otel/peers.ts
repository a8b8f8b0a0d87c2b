/* eslint-disable @typescript-eslint/no-require-imports -- the peer is loaded by literal name, so bundlers see it */
import { checkPeers, type PeerLoader } from '../core/kit/missing-peer';

const OTEL_PEER_LOADERS: Readonly<Record<string, PeerLoader>> = Object.freeze({
  '@opentelemetry/api': () => require('@opentelemetry/api') as unknown,
});

/** The package `golem/otel` needs beside golem: the OpenTelemetry API (an optional peer). */
export const OTEL_PEERS: readonly string[] = Object.freeze(Object.keys(OTEL_PEER_LOADERS));

checkPeers('golem/otel', OTEL_PEER_LOADERS);
