// Loaded with --import: records every package the process loads, by import or require (the
// synchronous module hooks see both), one per line in NOTIFYD_TRACE_PACKAGES, so that a
// worker's module graph can be read after the fact. Needs Node ≥ 22.15 (module.registerHooks).
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.NOTIFYD_TRACE_PACKAGES;
const seen = new Set();
if (file) {
  registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      const parts = resolved.url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//g);
      const name = parts?.[parts.length - 1].slice('/node_modules/'.length, -1);
      if (name && !seen.has(name)) {
        seen.add(name);
        appendFileSync(file, `${name}\n`);
      }
      return resolved;
    },
  });
}
