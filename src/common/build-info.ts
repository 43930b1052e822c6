import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  /** The git commit of the build, or "unknown". */
  commit: string;
  /** When the build ran, in epoch seconds; null when unknown. */
  built_at_epoch: number | null;
}

/**
 * Reads a build-info.json written by scripts/build-info.mjs (`npm run build`). Without one (a
 * run from source that never built), NOTIFYD_COMMIT and NOTIFYD_BUILT_AT from the environment,
 * else "unknown" and null: a missing file never stops notifyd.
 */
export function readBuildInfo(file: string | undefined, env: NodeJS.ProcessEnv = process.env): BuildInfo {
  if (file) {
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildInfo>;
      return {
        commit: typeof raw.commit === 'string' && raw.commit ? raw.commit : 'unknown',
        built_at_epoch:
          typeof raw.built_at_epoch === 'number' && Number.isFinite(raw.built_at_epoch) ? raw.built_at_epoch : null,
      };
    } catch {
      // no build (or an unreadable one): the environment, below
    }
  }
  const commit = env.NOTIFYD_COMMIT?.trim();
  const builtAt = env.NOTIFYD_BUILT_AT?.trim();
  const epoch = builtAt ? (/^\d+$/.test(builtAt) ? Number(builtAt) : Math.floor(Date.parse(builtAt) / 1000)) : NaN;
  return {
    commit: commit && /^[0-9a-fA-F]{7,64}$/.test(commit) ? commit.toLowerCase() : 'unknown',
    built_at_epoch: Number.isFinite(epoch) ? epoch : null,
  };
}

/** dist/build-info.json of the package this file belongs to (run from src/ or dist/src/). */
function buildInfoFile(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'notifyd') return join(dir, 'dist', 'build-info.json');
    } catch {
      // keep walking up
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** This process's build, read once at start. */
export const BUILD_INFO: BuildInfo = readBuildInfo(buildInfoFile());
