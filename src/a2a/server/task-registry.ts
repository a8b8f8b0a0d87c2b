import type { RunState } from '../../core/index';
import type { Artifact, Message, StreamResponse, Task, TaskState } from '../wire-types';
import { INTERRUPTED_STATES, TERMINAL_STATES } from '../wire-types';

/** One task the server knows: its wire state plus what runs it. Internal. */
export interface TaskRecord {
  readonly id: string;
  readonly contextId: string;
  /** The key of the agent serving it. */
  readonly agentKey: string;
  /** The owner key of the caller who started it (from `authenticate`), if any. */
  readonly owner: string | undefined;
  state: TaskState;
  statusMessage: Message | undefined;
  timestamp: string;
  readonly artifacts: Artifact[];
  readonly history: Message[];
  /** Aborts the running run (present while one runs). */
  controller: AbortController | undefined;
  /** Where a paused run resumes from: its stored run id, or its state. */
  resumeFrom: string | RunState | undefined;
  /** Call ids the paused run waits for. */
  pendingCalls: { approvals: string[]; external: string[] };
  readonly listeners: Set<(event: StreamResponse) => void>;
  /** Told about every update after the listeners (push notifications); set by the registry. */
  observer: TaskObserver | undefined;
}

/** Told about every status and artifact update of every task of a registry. Internal. */
export type TaskObserver = (record: TaskRecord, event: StreamResponse) => void;

/** A new task record in SUBMITTED state, not yet registered. */
export function newTaskRecord(
  id: string,
  contextId: string,
  agentKey: string,
  owner: string | undefined,
): TaskRecord {
  return {
    id,
    contextId,
    agentKey,
    owner,
    state: 'TASK_STATE_SUBMITTED',
    statusMessage: undefined,
    timestamp: new Date().toISOString(),
    artifacts: [],
    history: [],
    controller: undefined,
    resumeFrom: undefined,
    pendingCalls: { approvals: [], external: [] },
    listeners: new Set(),
    observer: undefined,
  };
}

/** Whether `state` is terminal (completed, failed, canceled, rejected). */
export function isTerminal(state: TaskState): boolean {
  return TERMINAL_STATES.includes(state);
}

/** Whether the task waits for something: terminal or interrupted. */
export function isSettled(state: TaskState): boolean {
  return isTerminal(state) || INTERRUPTED_STATES.includes(state);
}

/** The task's wire form; `historyLength` keeps the most recent messages (0: none). */
export function taskSnapshot(record: TaskRecord, historyLength?: number): Task {
  const history =
    historyLength === undefined
      ? record.history
      : historyLength <= 0
        ? []
        : record.history.slice(-historyLength);
  return {
    id: record.id,
    contextId: record.contextId,
    status: {
      state: record.state,
      timestamp: record.timestamp,
      ...(record.statusMessage !== undefined && { message: record.statusMessage }),
    },
    ...(record.artifacts.length > 0 && { artifacts: [...record.artifacts] }),
    ...(history.length > 0 && { history: [...history] }),
  };
}

/**
 * The tasks of one server, in memory, at most `max` of them: past the cap the oldest terminal task
 * is forgotten (running and interrupted ones are kept).
 */
export class TaskRegistry {
  private readonly tasks = new Map<string, TaskRecord>();

  constructor(
    private readonly max: number,
    private readonly observer?: TaskObserver,
  ) {}

  /** The task with this id, if known. */
  get(id: string): TaskRecord | undefined {
    return this.tasks.get(id);
  }

  /** Registers a new task in SUBMITTED state. */
  create(id: string, contextId: string, agentKey: string, owner: string | undefined): TaskRecord {
    return this.add(newTaskRecord(id, contextId, agentKey, owner));
  }

  /** Registers `record` (built with {@link newTaskRecord}); returns it. */
  add(record: TaskRecord): TaskRecord {
    record.observer = this.observer;
    this.tasks.set(record.id, record);
    this.evict();
    return record;
  }

  /** Forgets the task `id` (the next read goes to the store again). */
  forget(id: string): void {
    this.tasks.delete(id);
  }

  /** Every known task (for shutdown and listing). */
  all(): IterableIterator<TaskRecord> {
    return this.tasks.values();
  }

  private evict(): void {
    if (this.tasks.size <= this.max) return;
    for (const [id, record] of this.tasks) {
      if (isTerminal(record.state)) {
        this.tasks.delete(id);
        if (this.tasks.size <= this.max) return;
      }
    }
  }
}

/**
 * Sends `event` to every listener of the task (a throwing listener is dropped), then to the
 * registry's observer (whose failure never reaches the run).
 */
export function publish(record: TaskRecord, event: StreamResponse): void {
  for (const listener of [...record.listeners]) {
    try {
      listener(event);
    } catch {
      record.listeners.delete(listener);
    }
  }
  try {
    record.observer?.(record, event);
  } catch {
    // Push delivery is best effort: it never fails the task.
  }
}

/** Sets the task's status and publishes the change. */
export function setStatus(record: TaskRecord, state: TaskState, message?: Message): void {
  record.state = state;
  record.statusMessage = message;
  record.timestamp = new Date().toISOString();
  const status = {
    state,
    timestamp: record.timestamp,
    ...(message !== undefined && { message }),
  };
  publish(record, {
    statusUpdate: { taskId: record.id, contextId: record.contextId, status },
  });
}

/** Adds an artifact to the task and publishes it. */
export function addArtifact(record: TaskRecord, artifact: Artifact): void {
  record.artifacts.push(artifact);
  publish(record, {
    artifactUpdate: {
      taskId: record.id,
      contextId: record.contextId,
      artifact,
      lastChunk: true,
    },
  });
}

/**
 * Publishes one chunk of an artifact: the task keeps `whole` (the artifact so far, replacing the
 * one of the same id), the event carries `chunk` with `append` and `lastChunk` as given.
 */
export function publishChunk(
  record: TaskRecord,
  whole: Artifact,
  chunk: Artifact,
  flags: { append: boolean; lastChunk: boolean },
): void {
  const index = record.artifacts.findIndex((a) => a.artifactId === whole.artifactId);
  if (index === -1) record.artifacts.push(whole);
  else record.artifacts[index] = whole;
  publish(record, {
    artifactUpdate: {
      taskId: record.id,
      contextId: record.contextId,
      artifact: chunk,
      ...(flags.append && { append: true }),
      lastChunk: flags.lastChunk,
    },
  });
}

/** Resolves once the task is terminal or interrupted. */
export function settled(record: TaskRecord): Promise<void> {
  if (isSettled(record.state)) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = (): void => {
      if (!isSettled(record.state)) return;
      record.listeners.delete(listener);
      resolve();
    };
    record.listeners.add(listener);
  });
}
