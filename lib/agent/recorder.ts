import type { StepSummary } from '../tasks/model.js';
import type { TaskProgress } from '../tasks/task-repository.js';
import type { Redactor } from './redact.js';
import type { UsageMeter } from './usage.js';

/**
 * The task's trace while it runs: one StepSummary per step, the visited domains, the
 * duration and the token usage, published after every step so a poller sees progress.
 * Every message passes the redactor first: summaries are shown to API callers.
 */
export type PublishProgress = (progress: TaskProgress) => Promise<boolean>;

/** The task item left `running` under the agent (swept, or ended elsewhere). */
export class TaskGoneError extends Error {
  constructor() {
    super('The task is no longer running');
  }
}

const MSG_MAX_CHARS = 300;

export class StepRecorder {
  readonly steps: StepSummary[] = [];
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
    this.steps.push({ n: this.steps.length + 1, type, msg: clean.length > MSG_MAX_CHARS ? `${clean.slice(0, MSG_MAX_CHARS)}…` : clean, success });
    if (!(await this.publish(this.progress()))) throw new TaskGoneError();
  }
}
