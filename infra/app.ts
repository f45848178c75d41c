import { App } from 'aws-cdk-lib';
import { createService } from './service.js';

/**
 * The CDK app (cdk.json runs it with tsx). Context:
 *   -c stage=prod            stage name (default dev); stacks Bts-<stage>-Stateful/-Stateless
 *   -c bundle=false          skip esbuild bundling of the API functions (synth checks)
 *   -c bedrockModel=<id>     pin the agent to one Bedrock model / inference profile
 *   -c agentConcurrency=10 designConcurrency=10 apiRateLimit=50 apiBurstLimit=100
 *   -c retainData=true|false keep tables, key and user pool on delete (default: prod only)
 */
const app = new App();

if (app.node.tryGetContext('bundle') === 'false') {
  // CDK's own switch for "do not bundle": assets of stacks not listed here are hashed
  // but never built. Template checks (cdk-nag, tests) then run in seconds, with the very
  // same NodejsFunction constructs a deploy uses; only the code asset is a stand-in.
  app.node.setContext('aws:cdk:bundling-stacks', []);
}

createService(app);
app.synth();
