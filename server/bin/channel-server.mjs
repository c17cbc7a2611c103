#!/usr/bin/env node
// The channel server's command: `channel-server [--dev]` (npx channel-server in this repository) runs main.ts, its
// TypeScript loaded through tsx. Configuration is the environment (docs/server.md, "Settings").
import { register } from 'tsx/esm/api';

register();
await import('../main.ts');
