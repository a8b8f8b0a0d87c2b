import { EvalError } from './eval-error';
import { cassettePath, readCassette, writeCassette, type CassetteFile } from './cassette';
import { recordingSession, replayingSession, type CassetteSession } from './cassette-middleware';
import type { ResolvedCassettes } from './cassette-options';

/** The cassette of one case run: its file and the session its attempt runs with. */
export interface CaseCassette {
  readonly file: string;
  readonly session: CassetteSession;
  /** Replay: the recorded cassette (its `durationMs` is the run's). */
  readonly recorded: CassetteFile | undefined;
}

/**
 * Opens the cassette of a case run for one attempt: replays the recorded file (`replay`, or
 * `auto` when it exists), or records a new one (`record`, or `auto` without a file). In `replay`
 * mode a missing file throws `EvalError('cassette-missing')`; a corrupt one throws
 * `EvalError('cassette-corrupt')` in every mode but `record` (which overwrites it).
 */
export async function openCaseCassette(
  cassettes: ResolvedCassettes,
  caseName: string,
  repeat: number,
): Promise<CaseCassette> {
  const file = cassettePath(cassettes.dir, caseName, repeat);
  if (cassettes.mode === 'record') {
    return { file, session: recordingSession(), recorded: undefined };
  }
  const recorded = await readCassette(file, caseName);
  if (recorded !== undefined) {
    const session = replayingSession(recorded, { caseName, file, match: cassettes.match });
    return { file, session, recorded };
  }
  if (cassettes.mode === 'replay') {
    throw new EvalError(
      'cassette-missing',
      `case "${caseName}" has no cassette ${file} to replay; record it first (mode 'record' or 'auto', or --record)`,
      { caseName, file },
    );
  }
  return { file, session: recordingSession(), recorded: undefined };
}

/**
 * Writes what a successful attempt recorded (a failing attempt's partial recording is never
 * written). Does nothing for a replayed cassette.
 */
export async function saveCaseCassette(
  cassette: CaseCassette,
  caseName: string,
  repeat: number,
  durationMs: number,
): Promise<void> {
  if (cassette.session.mode !== 'record') return;
  await writeCassette(cassette.file, {
    golemCassette: 1,
    case: caseName,
    repeat,
    recordedAt: new Date().toISOString(),
    durationMs,
    calls: cassette.session.calls,
  });
}
