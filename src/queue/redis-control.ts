import type { Redis } from 'ioredis';
import type { RunControlPort, RunInfo } from './port';
import type { QueueKeys } from './redis';
import type { SharedSubscriber } from './subscriber';

/** Cancellation markers, the control channel and job pointers in Redis. Internal. */
export class RedisControl implements RunControlPort {
  constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
    private readonly subscriber: SharedSubscriber,
    private readonly ttlMs: number,
  ) {}

  async requestCancel(runId: string, reason: string): Promise<void> {
    await this.redis.set(this.keys.cancel(runId), reason, 'PX', this.ttlMs);
    await this.redis.publish(this.keys.control(), JSON.stringify({ cancel: runId, reason }));
  }

  async cancelReason(runId: string): Promise<string | undefined> {
    return (await this.redis.get(this.keys.cancel(runId))) ?? undefined;
  }

  onCancel(handler: (runId: string, reason: string) => void): Promise<() => Promise<void>> {
    return this.subscriber.listen(this.keys.control(), (message) => {
      const parsed = JSON.parse(message) as { cancel?: unknown; reason?: unknown };
      if (typeof parsed.cancel === 'string')
        handler(parsed.cancel, typeof parsed.reason === 'string' ? parsed.reason : '');
    });
  }

  async setRunInfo(runId: string, info: RunInfo): Promise<void> {
    const key = this.keys.job(runId);
    const fields: Record<string, string> = {
      lane: info.lane,
      jobId: info.jobId,
      agent: info.agent,
    };
    if (info.deps !== undefined) fields.deps = info.deps;
    if (info.owner !== undefined) fields.owner = info.owner;
    await this.redis.multi().hset(key, fields).pexpire(key, this.ttlMs).exec();
  }

  async runInfo(runId: string): Promise<RunInfo | undefined> {
    const fields = await this.redis.hgetall(this.keys.job(runId));
    const { lane, jobId, agent, deps, owner } = fields;
    if (lane === undefined || jobId === undefined || agent === undefined) return undefined;
    return {
      lane,
      jobId,
      agent,
      ...(deps !== undefined && { deps }),
      ...(owner !== undefined && { owner }),
    };
  }
}
