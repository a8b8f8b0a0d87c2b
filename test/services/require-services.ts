/**
 * Global setup of `npm run test:services`: every service the suites need must answer, or the run
 * fails here with a message saying what was tried — a missing server is a failure, not a skip.
 */
import { POSTGRES_URL, redactedUrl } from './postgres-url';
import { testPool } from './pg';
import { REDIS_URL, testRedis } from './redis';

export default async function requireServices(): Promise<void> {
  const pool = testPool();
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `test:services needs PostgreSQL at ${redactedUrl(POSTGRES_URL)} (set GOLEM_TEST_POSTGRES_URL to use another server): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    await pool.end().catch(() => undefined);
  }
  const redis = testRedis();
  try {
    await redis.ping();
  } catch (error) {
    throw new Error(
      `test:services needs Redis at ${redactedUrl(REDIS_URL)} (set GOLEM_TEST_REDIS_URL to use another server): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    redis.disconnect();
  }
}
