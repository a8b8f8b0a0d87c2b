import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Message } from 'golem';

interface PausedRun {
  owner: string;
  messages: Message[];
}

/**
 * Paused runs waiting for a human decision, by id. In memory here; a real app keeps the
 * messages (plain JSON) in its database, so the decision may come from another instance.
 */
@Injectable()
export class PausedRuns {
  private readonly runs = new Map<string, PausedRun>();

  save(owner: string, messages: Message[]): string {
    const id = randomUUID();
    this.runs.set(id, { owner, messages });
    return id;
  }

  /** The paused run `id` of `owner`, removed from the store; `undefined` when unknown. */
  take(id: string, owner: string): Message[] | undefined {
    const run = this.runs.get(id);
    if (run?.owner !== owner) return undefined;
    this.runs.delete(id);
    return run.messages;
  }
}
