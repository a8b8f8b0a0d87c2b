/**
 * Where the services suite finds PostgreSQL: GOLEM_TEST_POSTGRES_URL, else the machine's server
 * at 127.0.0.1:5432 (trust auth, database `test`, user `postgres`).
 */
export const POSTGRES_URL =
  process.env.GOLEM_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
