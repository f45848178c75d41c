import { Transport, type TransportOptions } from './http.js';
import { waitForTask, type WaitOptions } from './poll.js';
import type {
  CancelledTask,
  CreateApiKeyRequest,
  CreatedKey,
  CreateTaskRequest,
  CredentialStatus,
  DeleteCredentialsRequest,
  DesignExtractRequest,
  DesignSubmitted,
  ExtractorName,
  KeyList,
  Ok,
  PutCredentialsRequest,
  Session,
  SessionList,
  Submitted,
  TaskView,
} from './types.gen.js';

export interface ClientOptions extends TransportOptions {
  /** e.g. http://127.0.0.1:3000 for the local runtime, or the ApiUrl output of a deployment. */
  baseUrl: string;
  /** For the data plane: tasks, sessions, credentials, design. */
  apiKey?: string;
  /** For apiKeys.* only (a dashboard session token). */
  dashboardToken?: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export type RunOptions = WaitOptions;

const enc = encodeURIComponent;

export class Tasks {
  constructor(private readonly http: Transport) {}

  /** Submits an agent task; it starts `pending`. */
  create(params: CreateTaskRequest, opts: RequestOptions = {}): Promise<Submitted> {
    return this.http.request({ method: 'POST', path: '/v1/tasks', credential: 'apiKey', body: params, ...opts });
  }

  get(taskId: string, opts: RequestOptions = {}): Promise<TaskView> {
    return this.http.request({ method: 'GET', path: `/v1/tasks/${enc(taskId)}`, credential: 'apiKey', ...opts });
  }

  /** The caller's sessions, most recently active first (`limit` default 50, at most 100). */
  list(params: { limit?: number } = {}, opts: RequestOptions = {}): Promise<SessionList> {
    return this.http.request({
      method: 'GET',
      path: '/v1/tasks',
      credential: 'apiKey',
      query: { limit: params.limit },
      ...opts,
    });
  }

  /** A pending task is cancelled at once; a running one stops at its next step (its status still reads `running`). */
  cancel(taskId: string, opts: RequestOptions = {}): Promise<CancelledTask> {
    return this.http.request({
      method: 'POST',
      path: `/v1/tasks/${enc(taskId)}/cancel`,
      credential: 'apiKey',
      ...opts,
    });
  }

  /** Polls an existing task until it is `completed`, `failed` or `cancelled`. */
  wait(taskId: string, opts: WaitOptions = {}): Promise<TaskView> {
    return waitForTask(taskId, (signal) => this.get(taskId, { signal }), opts);
  }

  /** Submits, then waits; a failed task is returned (check `status` and `error`), not thrown. */
  async run(params: CreateTaskRequest, opts: RunOptions = {}): Promise<TaskView> {
    const { taskId } = await this.create(params, { signal: opts.signal });
    return this.wait(taskId, opts);
  }
}

export class Sessions {
  constructor(private readonly http: Transport) {}

  /** The session's tasks, oldest first. */
  get(sessionId: string, opts: RequestOptions = {}): Promise<Session> {
    return this.http.request({ method: 'GET', path: `/v1/sessions/${enc(sessionId)}`, credential: 'apiKey', ...opts });
  }
}

export class Credentials {
  constructor(private readonly http: Transport) {}

  private path(endUserId: string): string {
    return `/v1/end-users/${enc(endUserId)}/credentials`;
  }

  /** Upserts: fields not given keep their values. */
  put(endUserId: string, values: PutCredentialsRequest, opts: RequestOptions = {}): Promise<Ok> {
    return this.http.request({
      method: 'PUT',
      path: this.path(endUserId),
      credential: 'apiKey',
      body: values,
      ...opts,
    });
  }

  /** Which platforms are connected; never a secret. */
  get(endUserId: string, opts: RequestOptions = {}): Promise<CredentialStatus> {
    return this.http.request({ method: 'GET', path: this.path(endUserId), credential: 'apiKey', ...opts });
  }

  /** Clears the listed fields, or every credential of the end-user when `fields` is omitted. */
  delete(
    endUserId: string,
    fields?: NonNullable<DeleteCredentialsRequest>['fields'],
    opts: RequestOptions = {},
  ): Promise<Ok> {
    const body = fields === undefined ? undefined : { fields };
    return this.http.request({ method: 'DELETE', path: this.path(endUserId), credential: 'apiKey', body, ...opts });
  }
}

export interface DesignOptions extends RequestOptions {
  endUserId: string;
  /** Omitted or empty runs all six; exactly one uses the path-scoped endpoint. */
  extractors?: ExtractorName[];
  enableIpRotation?: boolean;
}

export class Design {
  constructor(
    private readonly http: Transport,
    private readonly tasks: Tasks,
  ) {}

  /** Submits a design extraction of `url` in a fresh session; the result lands in the task's `design`. */
  extract(url: string, options: DesignOptions): Promise<DesignSubmitted> {
    const { endUserId, extractors, enableIpRotation, signal } = options;
    const single = extractors?.length === 1 ? extractors[0] : undefined;
    const body: DesignExtractRequest = {
      url,
      endUserId,
      ...(enableIpRotation === undefined ? {} : { enableIpRotation }),
    };
    if (extractors && !single) body.extractors = extractors;
    const path = single ? `/v1/design/extract/${enc(single)}` : '/v1/design/extract';
    return this.http.request({ method: 'POST', path, credential: 'apiKey', body, signal });
  }

  /** Submits, then waits for the terminal task (design tasks usually take 5-15 s). */
  async run(url: string, options: DesignOptions & RunOptions): Promise<TaskView> {
    const { taskId } = await this.extract(url, options);
    return this.tasks.wait(taskId, options);
  }
}

/** Dashboard-only: these calls use `dashboardToken`, never the API key. */
export class ApiKeys {
  constructor(private readonly http: Transport) {}

  /** The response holds the secret; it is never shown again. */
  create(params: NonNullable<CreateApiKeyRequest> = {}, opts: RequestOptions = {}): Promise<CreatedKey> {
    return this.http.request({ method: 'POST', path: '/v1/api-keys', credential: 'dashboard', body: params, ...opts });
  }

  list(opts: RequestOptions = {}): Promise<KeyList> {
    return this.http.request({ method: 'GET', path: '/v1/api-keys', credential: 'dashboard', ...opts });
  }

  /** Immediate and irreversible: the key answers 403 from the next request on. */
  revoke(keyId: string, opts: RequestOptions = {}): Promise<Ok> {
    return this.http.request({
      method: 'DELETE',
      path: `/v1/api-keys/${enc(keyId)}`,
      credential: 'dashboard',
      ...opts,
    });
  }
}

/** The Browser Task Service API. */
export class BrowserTaskClient {
  readonly tasks: Tasks;
  readonly sessions: Sessions;
  readonly credentials: Credentials;
  readonly design: Design;
  readonly apiKeys: ApiKeys;

  constructor(options: ClientOptions) {
    const http = new Transport(options);
    this.tasks = new Tasks(http);
    this.sessions = new Sessions(http);
    this.credentials = new Credentials(http);
    this.design = new Design(http, this.tasks);
    this.apiKeys = new ApiKeys(http);
  }
}
