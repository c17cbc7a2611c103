#!/usr/bin/env node
// The channel server's command (npx channel-server in this repository), its TypeScript loaded through tsx:
// `channel-server [--dev]` starts the server (main.ts; configuration is the environment, docs/server.md "Settings");
// `channel-server COMMAND …` runs an operator's command (cli/main.ts; `channel-server --help` lists them,
// docs/operating.md).
import { register } from 'tsx/esm/api';

register();
const [first] = process.argv.slice(2);
if (first === undefined || first === '--dev') await import('../main.ts');
else await import('../cli/main.ts');
