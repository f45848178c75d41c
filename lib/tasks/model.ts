import * as z from 'zod';
import type { DesignResult, ExtractorName } from './design-result.js';
import type { SessionSummary, StepSummary, TaskUsage, TaskView } from './schemas.js';

export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export { EXTRACTORS, type DesignResult, type ExtractorName } from './design-result.js';
export type { SessionSummary, StepSummary, TaskUsage, TaskView };

export const MAX_STEPS = 25;

/** A knowledge-graph recipe named by the caller: the task runs it with no model (lib/agent/lookup-task.ts). */
export interface LookupRequest {
  site: string;
  operation: string;
  params: Record<string, unknown>;
}

export interface AgentRequest {
  lookup?: LookupRequest;
  startUrl?: string;
  schema?: Record<string, unknown>;
  maxSteps: number;
  includeHtmlDump: boolean;
}

export interface DesignRequest {
  url: string;
  extractors: ExtractorName[];
  enableIpRotation: boolean;
}

/** The stored task item: SPEC 2.1 fields plus internal ones. */
export interface TaskItem {
  taskId: string;
  businessId: string;
  sessionId: string;
  endUserId: string;
  task: string;
  kind: 'agent' | 'design';
  status: TaskStatus;
  createdAt: string;
  updatedAt: string;
  /** `createdAt#taskId`: orders a session's tasks in the bySession index. */
  sessionSort: string;
  agent?: AgentRequest;
  designRequest?: DesignRequest;
  result?: string | Record<string, unknown>;
  structured_content?: Record<string, unknown>;
  html_dump?: string;
  design?: DesignResult;
  totalSteps: number;
  durationMs: number;
  visitedUrls: string[];
  stepSummaries: StepSummary[];
  error?: string;
  /** Set while running: a claim past this instant may be taken over. */
  leaseExpiresAt?: string;
  startedAt?: string;
  attempts?: number;
  /** After a transient failure: when the message comes back for the next attempt; the sweeper leaves the task to it. */
  retryAt?: string;
  /** The transient failure that scheduled the retry. */
  retryError?: string;
  cancelRequested?: boolean;
  /** Large result fields offloaded to S3 (DESIGN §5); inlined on read. */
  offloadedKey?: string;
  usage?: TaskUsage;
  /** Epoch seconds at which DynamoDB TTL deletes the item (TASK_RETENTION_DAYS after creation). */
  expiresAt?: number;
  /** Design tasks: where the time went (page load, in-page extraction, total), in ms. */
  designTimings?: { loadMs: number; inPageMs: number; totalMs: number };
}

/** Fields that `offloadedKey` may hold in S3 instead of the item. */
export const OFFLOADABLE_FIELDS = ['result', 'structured_content', 'html_dump', 'design', 'stepSummaries'] as const;

/** The queue message handed to the worker. */
export const TaskMessageSchema = z.object({ taskId: z.string().min(1), kind: z.enum(['agent', 'design']) });
export type TaskMessage = z.infer<typeof TaskMessageSchema>;

export function toTaskView(t: TaskItem): TaskView {
  const view: TaskView = {
    taskId: t.taskId,
    sessionId: t.sessionId,
    endUserId: t.endUserId,
    task: t.task,
    status: t.status,
    totalSteps: t.totalSteps,
    durationMs: t.durationMs,
    visitedUrls: t.visitedUrls,
    stepSummaries: t.stepSummaries,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
  if (t.result !== undefined) view.result = t.result;
  if (t.structured_content !== undefined) view.structured_content = t.structured_content;
  if (t.html_dump !== undefined) view.html_dump = t.html_dump;
  if (t.status === 'failed' && t.error !== undefined) view.error = t.error;
  if (t.design !== undefined) view.design = t.design;
  if (t.usage !== undefined) view.usage = t.usage;
  return view;
}

/**
 * A session row holds ownership and ordering only; the first and latest task records
 * are read from the Tasks table, so statuses are never stale copies.
 */
export interface SessionItem {
  sessionId: string;
  businessId: string;
  endUserId: string;
  firstTaskId: string;
  latestTaskId: string;
  latestCreatedAt: string;
  turnCount: number;
  createdAt: string;
  /** Design sessions hold exactly one task and cannot be continued. */
  kind: 'agent' | 'design';
}

/** The session row a new session starts with: this task is its first and latest turn. */
export function firstTurn(item: TaskItem): SessionItem {
  return {
    sessionId: item.sessionId,
    businessId: item.businessId,
    endUserId: item.endUserId,
    firstTaskId: item.taskId,
    latestTaskId: item.taskId,
    latestCreatedAt: item.createdAt,
    turnCount: 1,
    createdAt: item.createdAt,
    kind: item.kind,
  };
}
