import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/node-function.js';
import { createService, type Service } from '../../infra/service.js';

export const TEST_STAGE = 'test';

export interface Synthesized {
  service: Service;
  assembly: CloudAssembly;
  stateful: Template;
  stateless: Template;
}

/**
 * Synthesizes the app once per test file, the way `cdk synth` does: the feature flags
 * of cdk.json, and esbuild bundling skipped (CDK's `aws:cdk:bundling-stacks` switch) so
 * the suite runs in seconds; bundle.test.ts bundles a real handler instead.
 */
export function synthesize(): Synthesized {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const app = new App({
    context: { ...cdkJson.context, stage: TEST_STAGE, 'aws:cdk:bundling-stacks': [] },
  });
  const service = createService(app);
  const assembly = app.synth();
  const template = (name: string): Template =>
    Template.fromJSON(assembly.getStackByName(name).template as Record<string, unknown>, {
      skipCyclicalDependenciesCheck: true,
    });
  return {
    service,
    assembly,
    stateful: template(service.stateful.stackName),
    stateless: template(service.stateless.stackName),
  };
}

/** Logical id of a construct's CloudFormation resource in its stack. */
export function logicalId(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}
