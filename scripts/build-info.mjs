// Writes dist/build-info.json: the commit this build was made from and when, for GET /v1/health
// (`commit`, `built_at_epoch`; src/common/build-info.ts reads it). The commit is
// `git rev-parse HEAD`; where there is no .git (the Docker build copies src/ only) it is
// NOTIFYD_COMMIT, and the time NOTIFYD_BUILT_AT (epoch seconds or an ISO date) when given.
// Neither is required: without them the file says "unknown" and the build's own time, and the
// build never fails for want of git. BUILD_INFO_OUT overrides the output path (tests).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.env.BUILD_INFO_OUT || join(root, 'dist', 'build-info.json');

function gitCommit() {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    })
      .toString()
      .trim();
    return /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
  } catch {
    return null; // no git, or not a repository
  }
}

function envCommit() {
  const v = (process.env.NOTIFYD_COMMIT ?? '').trim();
  return /^[0-9a-fA-F]{7,64}$/.test(v) ? v.toLowerCase() : null;
}

/** NOTIFYD_BUILT_AT as epoch seconds; null when unset or unreadable. */
function envBuiltAt() {
  const v = (process.env.NOTIFYD_BUILT_AT ?? '').trim();
  if (!v) return null;
  if (/^\d{9,11}$/.test(v)) return Number(v);
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

const info = {
  commit: gitCommit() ?? envCommit() ?? 'unknown',
  built_at_epoch: envBuiltAt() ?? Math.floor(Date.now() / 1000),
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(info)}\n`);
