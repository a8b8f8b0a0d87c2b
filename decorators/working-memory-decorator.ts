import type { AnyClass } from './markers';
import { writeOwn } from './metadata';

/** The metadata key `@WorkingMemory` records under. */
export const WORKING_MEMORY_KEY = 'golem:working-memory';

/** Options of {@link WorkingMemory}. */
export interface WorkingMemoryDecoratorOptions {
  /** One record per owner (default) or per conversation (`thread`). */
  scope?: 'owner' | 'thread';
  /** The update tool's name; default `update_working_memory`. */
  toolName?: string;
}

/** What `@WorkingMemory` records. */
export interface WorkingMemoryRecord {
  readonly dto: unknown;
  readonly options: Readonly<WorkingMemoryDecoratorOptions>;
}

/**
 * Declares the agent's working memory: a class-validator DTO whose fields (each `@IsOptional()`:
 * the record starts empty) the model keeps up to date with the `update_working_memory` tool.
 * The container (`golemModule`) and the Nest module (`GolemModule.forRoot`) give the agent a
 * `Memory` with this record — the app's `memory` with the DTO as its working memory, or one of
 * its own when the app binds none. Runs need an `owner` (`thread` scope: a `conversation`).
 *
 * ```ts
 * class UserProfile {
 *   @IsOptional() @IsString() name?: string;
 *   @IsOptional() @IsIn(['free', 'pro']) plan?: string;
 * }
 * @Agent({ model: 'default' })
 * @WorkingMemory(UserProfile)
 * class SupportAgent {}
 * ```
 */
export function WorkingMemory(
  dto: new () => object,
  options?: WorkingMemoryDecoratorOptions,
): (target: AnyClass) => void {
  return (target) => {
    const record: WorkingMemoryRecord = { dto, options: { ...(options ?? {}) } };
    writeOwn(WORKING_MEMORY_KEY, target, record);
  };
}
