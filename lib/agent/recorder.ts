import { TaskGoneError } from '../errors.js';
import type { StepSummary } from '../tasks/model.js';
import type { RunningState, TaskProgress } from '../tasks/task-repository.js';
import type { Redactor } from './redact.js';
import type { UsageMeter } from './usage.js';

/** Writes progress and answers whether the task should go on (TaskRepository.updateRunning). */
export type PublishProgress = (progress: TaskProgress) => Promise<RunningState>;

const MSG_MAX_CHARS = 300;

/**
 * The task's trace while it runs: one StepSummary per step, the visited domains, the
 * duration and the token usage, published after every step so a poller sees progress;
 * the same write tells the run whether a cancel was requested. Every message passes the
 * redactor first: summaries are shown to API callers.
 */
export class StepRecorder {
  readonly steps: StepSummary[] = [];
  /** Set by the first progress write that finds a cancel request; the loop stops before its next step. */
  cancelRequested = false;
  readonly visitedUrls: string[] = [];
  private readonly started = performance.now();

  constructor(
    private readonly publish: PublishProgress,
    private readonly redactor: Redactor,
    private readonly usage: UsageMeter,
  ) {}

  /** Records the host of a page the browser navigated to (deduplicated, in order). */
  visit(url: string): void {
    let host: string;
    try {
      const u = new URL(url);
      if (!/^https?:$/.test(u.protocol)) return;
      host = u.host;
    } catch {
      return;
    }
    if (!this.visitedUrls.includes(host)) this.visitedUrls.push(host);
  }

  get elapsedMs(): number {
    return Math.round(performance.now() - this.started);
  }

  progress(): TaskProgress {
    return {
      stepSummaries: [...this.steps],
      totalSteps: this.steps.length,
      durationMs: this.elapsedMs,
      visitedUrls: [...this.visitedUrls],
      usage: this.usage.snapshot(),
    };
  }

  async record(type: string, msg: string, success: boolean): Promise<void> {
    const clean = this.redactor.redact(msg.replace(/\s+/g, ' ').trim());
    this.steps.push({
      n: this.steps.length + 1,
      type,
      msg: clean.length > MSG_MAX_CHARS ? `${clean.slice(0, MSG_MAX_CHARS)}…` : clean,
      success,
    });
    const state = await this.publish(this.progress());
    if (state === 'gone') throw new TaskGoneError();
    if (state === 'cancel-requested') this.cancelRequested = true;
  }
}
