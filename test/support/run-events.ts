/** Helpers for tests that read run events: the union narrowed to one kind, and one line per event. */
import type { RunEvent, RunEventKind } from 'golem';

/** The events of one kind of a {@link RunEvent} union. */
export type EventOf<K extends RunEventKind> = Extract<RunEvent, { kind: K }>;

/** `event` narrowed to `kind`; throws (failing the test) when it is missing or of another kind. */
export function eventOf<K extends RunEventKind>(event: RunEvent | undefined, kind: K): EventOf<K> {
  if (event?.kind !== kind) throw new Error(`expected a ${kind} event, got ${event?.kind}`);
  return event as EventOf<K>;
}

/** `kind`, then ` t{turn}`, ` a{attempt}` and ` {callId}` where the kind has them. */
export function brief(e: RunEvent): string {
  let line: string = e.kind;
  if ('turn' in e) line += ` t${e.turn}`;
  if ('attempt' in e) line += ` a${e.attempt}`;
  if ('callId' in e && e.callId !== undefined) line += ` ${e.callId}`;
  return line;
}
