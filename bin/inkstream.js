#!/usr/bin/env node
// The admin CLI. Run through `npx inkstream …` so it uses the project's own Node 24.
import '../src/cli.ts';
