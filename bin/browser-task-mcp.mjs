#!/usr/bin/env node
// The package bin: registers tsx's loader, then runs the TypeScript CLI as is (no build step).
import { register } from 'tsx/esm/api';

register();
await import(new URL('../lib/mcp/cli.ts', import.meta.url).href);
