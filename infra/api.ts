import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Validations } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { ACTIVITY_PREFIXES } from '../lib/aws/resources.js';
import { ROUTES, type RouteResource } from '../lib/http/routes.js';
import { bindBucket, bindDashboardAuth, bindKey, bindQueueSend, bindTable } from './bindings.js';
import { ApiFunction } from './node-function.js';
import type { StatefulStack } from './stateful-stack.js';
import { AGENT_MODEL_PROVIDER } from './workers.js';

export interface ServiceApiProps {
  data: StatefulStack;
  /** Variables every function gets (stage, log level). */
  environment: Record<string, string>;
  throttle: { rateLimit: number; burstLimit: number };
}

/** The 405/404 fallback behind the `$default` route. */
export const FALLBACK_HANDLER = 'method-not-allowed';

/** Handler file → the union of what its routes use (create-design serves two routes). */
export function handlerUses(): Map<string, Set<RouteResource>> {
  const uses = new Map<string, Set<RouteResource>>([[FALLBACK_HANDLER, new Set()]]);
  for (const r of ROUTES) {
    const set = uses.get(r.handler) ?? new Set<RouteResource>();
    r.uses.forEach((u) => set.add(u));
    uses.set(r.handler, set);
  }
  return uses;
}

/**
 * The HTTP API: one route per ROUTES entry, each integrated with its handler's function,
 * and a `$default` route whose handler answers 405 with `Allow` for a known path hit with
 * the wrong verb (404 otherwise). Permissions come from the route table's `uses`.
 */
export class ServiceApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly functions = new Map<string, NodejsFunction>();

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    for (const [handler, uses] of handlerUses()) {
      // Only create-task needs to know whether agent tasks can run (it answers 503 otherwise).
      const environment =
        handler === 'create-task'
          ? { ...props.environment, BTS_MODEL_PROVIDER: AGENT_MODEL_PROVIDER }
          : props.environment;
      const { fn } = new ApiFunction(this, handler, {
        handler,
        environment,
        bundleKnowledge: handler === 'create-task',
      });
      // Every API function verifies dashboard tokens the same way, so none of them can fall
      // back to the local HS256 verifier in AWS; the variables name public identifiers.
      bindDashboardAuth(fn, props.data.dashboard.userPool, props.data.dashboard.client);
      uses.forEach((u) => grant(fn, u, props.data));
      this.functions.set(handler, fn);
    }

    const integrations = new Map<string, HttpLambdaIntegration>();
    const integration = (handler: string): HttpLambdaIntegration => {
      const fn = this.functions.get(handler);
      if (!fn) throw new Error(`No function for handler ${handler}`);
      const found = integrations.get(handler) ?? new HttpLambdaIntegration(`${handler}-integration`, fn);
      integrations.set(handler, found);
      return found;
    };

    this.api = new HttpApi(this, 'Http', {
      description: 'Browser Task Service REST API',
      // Our own stage below carries the access logs and throttling.
      createDefaultStage: false,
      defaultIntegration: integration(FALLBACK_HANDLER),
    });
    for (const route of ROUTES) {
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integration(route.handler),
      });
    }

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    Validations.of(this.api).acknowledge(
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'Handlers authenticate in code (lib/auth): API keys are looked up by hash in DynamoDB and dashboard routes verify Cognito ID tokens with aws-jwt-verify. A gateway authorizer would answer errors outside the {error} JSON contract and diverge from the local runtime, which runs the same handlers.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'See AwsSolutions-APIG4: the Cognito token is verified by the /v1/api-keys handlers, not a gateway authorizer.',
      },
    );
  }
}

function grant(fn: NodejsFunction, use: RouteResource, data: StatefulStack): void {
  const t = data.tables;
  const q = data.queues;
  switch (use) {
    case 'tasks:read':
      return bindTable(fn, t.Tasks, 'read');
    case 'tasks:write':
      return bindTable(fn, t.Tasks, 'write');
    case 'sessions:read':
      return bindTable(fn, t.Sessions, 'read');
    case 'sessions:write':
      return bindTable(fn, t.Sessions, 'write');
    case 'apiKeys:read':
      return bindTable(fn, t.ApiKeys, 'read');
    case 'apiKeys:write':
      return bindTable(fn, t.ApiKeys, 'write');
    case 'endUsers:read':
      return bindTable(fn, t.EndUsers, 'read');
    case 'endUsers:write':
      return bindTable(fn, t.EndUsers, 'write');
    case 'usage:write':
      return bindTable(fn, t.Usage, 'write');
    case 'businesses:read':
      return bindTable(fn, t.Businesses, 'read');
    case 'businesses:write':
      return bindTable(fn, t.Businesses, 'write');
    // Request windows and lastUsedAt only; the running slots of the workers stay out of reach.
    case 'activity:write':
      return bindTable(fn, t.Activity, 'write', {
        leadingKeys: [`${ACTIVITY_PREFIXES.rate}*`, `${ACTIVITY_PREFIXES.lastUsed}*`],
      });
    case 'activity:read':
      return bindTable(fn, t.Activity, 'read', { leadingKeys: [`${ACTIVITY_PREFIXES.lastUsed}*`] });
    case 'agentQueue:send':
      return bindQueueSend(fn, q.AgentTasks);
    case 'designQueue:send':
      return bindQueueSend(fn, q.DesignTasks);
    case 'kms:encrypt':
      return bindKey(fn, data.credentialsKey, 'encrypt');
    // Offloaded results are inlined on read; design asset URLs are presigned on read.
    case 'assets:read':
      return bindBucket(fn, data.assetsBinding, 'read', ['results', 'assets']);
  }
}
