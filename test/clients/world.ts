import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from '../fixtures/agent/openai-server.js';
import { shopper, wanderer } from '../fixtures/agent/policies.js';
import { catalogueRoute } from '../fixtures/agent/site.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

/**
 * What both client suites run against: the local runtime with workers on and the scripted
 * model server, the shop fixture (the Ridge Pack task is shopped; anything else wanders)
 * and the design fixture pages.
 */
export interface ClientWorld {
  rt: TestRuntime;
  shop: FixtureServer;
  pages: FixtureServer;
  llm: ScriptedOpenAIServer;
  close(): Promise<void>;
}

export async function startClientWorld(): Promise<ClientWorld> {
  // Wandering searches are slowed so a wandering agent is surely still running when cancelled.
  const slowWander = async (req: { url?: string }) => {
    if (/[?&]q=item/.test(req.url ?? '')) await new Promise((r) => setTimeout(r, 400));
    return false;
  };
  const shop = await startFixtureServer({ routes: [slowWander, catalogueRoute()] });
  const pages = await startFixtureServer();
  const llm = await startScriptedOpenAIServer((task) =>
    task.includes('Ridge Pack') ? shopper({ query: 'pack', product: /Ridge Pack 30L/ }) : wanderer,
  );
  const rt = await startTestRuntime({
    workers: true,
    env: { BTS_MODEL_PROVIDER: 'openai-compatible', BTS_MODEL_BASE_URL: llm.baseUrl, BTS_MODEL: 'scripted' },
  });
  return {
    rt,
    shop,
    pages,
    llm,
    async close() {
      await rt.stop();
      await shop.close();
      await pages.close();
      await llm.close();
    },
  };
}
