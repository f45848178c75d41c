import { Duration } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * esbuild bundles ESM so top-level await and `import.meta` work; packages that still call
 * `require` at runtime (CommonJS inside the bundle) get a real `require` from this banner.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __btsCreateRequire } from 'node:module'; const require = __btsCreateRequire(import.meta.url);";

/**
 * The nodejs22.x runtime ships AWS SDK v3 and resolves it for ES modules. Leaving the
 * clients and the DynamoDB document client out of every bundle halves its size (about
 * 530 KB minified) and cold-start parse time; smaller helpers (the S3 presigner) stay
 * bundled so we never depend on the runtime carrying them.
 */
export const RUNTIME_PROVIDED_MODULES = ['@aws-sdk/client-*', '@aws-sdk/lib-dynamodb'];

/** Shared with the bundle-size test so it measures what is deployed. */
export const API_BUNDLING: BundlingOptions = {
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: 'node22',
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  externalModules: RUNTIME_PROVIDED_MODULES,
  // esbuild comes from the npm devDependency: synth needs no Docker.
  forceDockerBundling: false,
};

/** Copies data/knowledgegraphindex/sites next to the bundled handler; plain cp, no Docker. */
const KNOWLEDGE_HOOKS: NonNullable<BundlingOptions['commandHooks']> = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir, outputDir) => [
    `mkdir -p "${outputDir}/knowledgegraphindex" && cp -r "${inputDir}/data/knowledgegraphindex/sites" "${outputDir}/knowledgegraphindex/sites"`,
  ],
};

export interface ApiFunctionProps {
  /** File name without extension under functions/api/. */
  handler: string;
  environment: Record<string, string>;
  /** Copy the knowledge graph's site files into the bundle (create-task checks lookup tasks against it). */
  bundleKnowledge?: boolean;
}

/** Where a bundle that carries the knowledge graph finds it in Lambda (the bundle's root is /var/task). */
export const BUNDLED_KNOWLEDGE_DIR = '/var/task/knowledgegraphindex';

/**
 * One API endpoint's Lambda. arm64 (Graviton): about 20% cheaper per GB-second with the
 * same or better Node.js cold starts, and the bundles hold no native code that would tie
 * them to x86. (The worker image stays x86_64; see workers.ts.)
 */
export class ApiFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    this.fn = new NodejsFunction(this, 'Fn', {
      entry: join(PROJECT_ROOT, 'functions', 'api', `${props.handler}.ts`),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      // More memory buys CPU: 512 MB keeps cold starts of a ~0.5 MB bundle short.
      memorySize: 512,
      // API Gateway HTTP APIs give up after 30 s; a handler is DynamoDB/SQS calls only.
      timeout: Duration.seconds(10),
      logGroup,
      bundling: props.bundleKnowledge ? { ...API_BUNDLING, commandHooks: KNOWLEDGE_HOOKS } : API_BUNDLING,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
        ...(props.bundleKnowledge ? { BTS_KNOWLEDGE_GRAPH_DIR: BUNDLED_KNOWLEDGE_DIR } : {}),
      },
    });
  }
}
