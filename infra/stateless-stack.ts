import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { QUEUES } from '../lib/aws/resources.js';
import { ServiceApi } from './api.js';
import type { StatefulStack } from './stateful-stack.js';
import { Workers } from './workers.js';

export interface StatelessStackProps extends StackProps {
  stage: string;
  data: StatefulStack;
  logLevel: string;
  throttle: { rateLimit: number; burstLimit: number };
  agentConcurrency: number;
  designConcurrency: number;
  bedrockModel?: string;
}

/**
 * Code and wiring, safe to destroy and redeploy at any time: the HTTP API and its
 * functions, the container-image workers and the alarms. All state lives in the
 * stateful stack and reaches functions only through bindings.
 */
export class StatelessStack extends Stack {
  readonly api: ServiceApi;
  readonly workers: Workers;
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const environment = { STAGE: props.stage, BTS_LOG_LEVEL: props.logLevel };

    this.api = new ServiceApi(this, 'Api', { data: props.data, environment, throttle: props.throttle });
    this.workers = new Workers(this, 'Workers', {
      data: props.data,
      environment,
      agentConcurrency: props.agentConcurrency,
      designConcurrency: props.designConcurrency,
      bedrockModel: props.bedrockModel,
    });

    // Lambda's basic execution role (CloudWatch Logs only) is the one managed policy used.
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'AWSLambdaBasicExecutionRole grants only log-stream writes; every function has its own log group.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'nodejs22.x is pinned on purpose: it is the Node version of the local runtime, the tests and the worker base image.',
    });

    this.alarmTopic = new Topic(this, 'Alarms', {
      displayName: `Browser Task Service ${props.stage} alarms`,
      enforceSSL: true,
    });
    Validations.of(this.alarmTopic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry only alarm names and metric values, no customer data; CloudWatch cannot publish to a topic under the AWS-managed SNS key.',
    });
    this.createAlarms(props.data);

    new CfnOutput(this, 'ApiUrl', { value: this.api.stage.url, description: 'Base URL of the REST API' });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topicArn,
      description: 'Subscribe to receive alarms',
    });
    new CfnOutput(this, 'DashboardUserPoolId', { value: props.data.dashboard.userPool.userPoolId });
    new CfnOutput(this, 'DashboardClientId', { value: props.data.dashboard.client.userPoolClientId });
  }

  private createAlarms(data: StatefulStack): void {
    const alarm = (id: string, metric: IMetric, threshold: number, description: string): void => {
      new Alarm(this, id, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      }).addAlarmAction(new SnsAction(this.alarmTopic));
    };
    for (const q of Object.values(QUEUES)) {
      // Any message in a DLQ is a task that failed maxReceiveCount times: act on the first.
      alarm(
        `${q.id}DlqAlarm`,
        data.queues[q.id].dlq.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
          statistic: 'Maximum',
        }),
        1,
        `${q.id} dead-letter queue holds messages`,
      );
    }
    const period = Duration.minutes(5);
    alarm('AgentErrorsAlarm', this.workers.agent.metricErrors({ period }), 3, 'Agent worker invocations failing');
    alarm('DesignErrorsAlarm', this.workers.design.metricErrors({ period }), 3, 'Design worker invocations failing');
    alarm('SweeperErrorsAlarm', this.workers.sweeper.metricErrors({ period }), 3, 'Task sweeper failing');
    alarm('Api5xxAlarm', this.api.api.metricServerError({ period }), 5, 'REST API answering 5xx');
  }
}
