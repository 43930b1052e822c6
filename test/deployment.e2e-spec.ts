import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { loadConfig } from '../src/config/app-config.js';
import { missingProductionSecrets } from '../src/config/production-secrets.js';

/**
 * The deployment files are code nobody runs in CI (no Docker daemon there), so their shape is
 * checked here: a compose file that lost its healthcheck or stopped requiring a secret would
 * otherwise only be noticed in production.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface ComposeService {
  image?: string;
  env_file?: string | (string | { path: string; required?: boolean })[];
  build?: unknown;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
  deploy?: { replicas?: number };
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const { db, api, worker } = compose.services;
  /** Every variable .env.example names, set (`NAME=`) or shown with its default (`# NAME=`). */
  const envExample = new Set(
    read('.env.example')
      .split('\n')
      .map((line) => line.match(/^(?:# )?([A-Z][A-Z0-9_]*)=/)?.[1])
      .filter((name): name is string => Boolean(name)),
  );

  it('runs PostgreSQL 17 on a named volume with a healthcheck', () => {
    expect(db.image).toMatch(/^postgres:17/);
    expect(db.volumes).toContain('pgdata:/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes)).toContain('pgdata');
    expect(JSON.stringify(db.healthcheck?.test)).toContain('pg_isready');
  });

  it('runs notifyd as an api role and a scalable worker role, both after the database is healthy', () => {
    expect(api.environment?.NOTIFYD_ROLE).toBe('api');
    expect(worker.environment?.NOTIFYD_ROLE).toBe('worker');
    expect(api.ports?.length).toBeGreaterThan(0);
    expect(worker.ports).toBeUndefined();
    expect(worker.deploy?.replicas).toBeGreaterThanOrEqual(1);
    for (const service of [api, worker]) {
      expect(service.build).toBeDefined();
      expect(service.depends_on?.db.condition).toBe('service_healthy');
      expect(service.environment?.DATABASE_URL).toMatch(
        /^postgres:\/\/notifyd:\$\{POSTGRES_PASSWORD:\?.+\}@db:5432\/notifyd$/,
      );
    }
  });

  it('refuses to start without its secrets (compose ${VAR:?message})', () => {
    for (const service of [api, worker]) {
      expect(service.environment?.ADMIN_API_KEY).toMatch(/^\$\{ADMIN_API_KEY:\?.+\}$/);
      expect(service.environment?.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?.+\}$/);
    }
    expect(db.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?.+\}$/);
  });

  it('documents every variable it reads in .env.example', () => {
    const used = new Set([...read('docker-compose.yml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    expect([...used].filter((v) => !envExample.has(v))).toEqual([]);
  });

  it('hands every variable of .env.example to both the api and the worker', () => {
    for (const service of [api, worker]) {
      const files = [service.env_file ?? []].flat().map((f) => (typeof f === 'string' ? f : f.path));
      expect(files).toContain('.env'); // the file the documented copy step makes
      // A variable set under `environment:` wins over env_file: it must still be the user's
      // value (an interpolation of itself), or compose would silently replace what .env says.
      for (const [name, value] of Object.entries(service.environment ?? {})) {
        if (!envExample.has(name)) continue;
        expect(`${name}=${value}`).toMatch(new RegExp(`^${name}=\\$\\{${name}(:?[-?].*)?\\}$`));
      }
    }
    // The published port is the one notifyd listens on (PORT reaches the container too).
    expect(api.ports).toContain('${PORT:-3400}:${PORT:-3400}');
  });

  it('requires the secrets a production start is refused without, in both roles', () => {
    // The names come from the code that refuses the start, so a new required secret fails here.
    const refused = missingProductionSecrets({ DATABASE_URL: 'postgres://x' }).map(
      (line) => line.match(/^([A-Z][A-Z0-9_]*) is required/)?.[1],
    );
    expect(refused).toEqual(['JWT_SECRET']);
    for (const name of [...refused, 'ADMIN_API_KEY'] as string[]) {
      expect(envExample.has(name)).toBe(true);
      for (const service of [api, worker])
        expect(service.environment?.[name]).toMatch(new RegExp(`^\\$\\{${name}:\\?.+\\}$`));
    }
  });

  it('.env.example lists every variable of the README configuration table that a deployment may need', () => {
    const readme = read('README.md');
    const table = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
    );
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const named = new Set(
      rows.flatMap((row) => {
        const [first, , meaning] = row.split('|').slice(1);
        // Names in the first column, plus settings the meaning introduces (PUSH_FANOUT_CONCURRENCY).
        return [
          ...`${first} ${meaning.match(/`[A-Z][A-Z0-9_]+` \(\d+\)|`[A-Z][A-Z0-9_]+` adds/g)?.join(' ') ?? ''}`.matchAll(
            /`([A-Z][A-Z0-9_]*)/g,
          ),
        ].map((m) => m[1]);
      }),
    );
    for (const channel of ['EMAIL', 'SMS', 'WHATSAPP', 'PUSH', 'TELEGRAM', 'SLACK', 'DISCORD'])
      named.add(`${channel}_FAILOVER_COOLDOWN_SECS`);
    /** Not for a compose deployment, each for its reason. */
    const notForDeployment: Record<string, string> = {
      DATABASE_URL: 'compose builds it from POSTGRES_PASSWORD',
      NOTIFYD_ROLE: 'compose sets it per service',
      NOTIFYD_DATA_DIR: 'the embedded PostgreSQL only',
      HOST: 'the container listens on every interface',
      NODE_ENV: 'the image sets production',
      LOG_CONNECTOR_BATCH_MAX: 'the log provider is for development',
      OUTBOUND_ALLOW_LOOPBACK: 'development and tests only (refused in production)',
      SNS_TEST_ENDPOINT_BASE: 'tests only (refused in production)',
    };
    expect(named.size).toBeGreaterThan(150);
    expect([...named].filter((v) => !envExample.has(v) && !(v in notForDeployment))).toEqual([]);
    // …and the exclusions are still README variables (a renamed one must be reconsidered).
    expect(Object.keys(notForDeployment).filter((v) => !named.has(v))).toEqual([]);
  });

  it('a .env copied from .env.example with its required lines filled in is a configuration notifyd accepts', () => {
    const env: Record<string, string> = {};
    for (const line of read('.env.example').split('\n')) {
      const m = line.match(/^([A-Z][A-Z0-9_]*)=(.*)$/);
      if (m) env[m[1]] = m[2];
    }
    Object.assign(env, {
      POSTGRES_PASSWORD: 'pw',
      ADMIN_API_KEY: 'a'.repeat(32),
      JWT_SECRET: 'j'.repeat(32),
      DATABASE_URL: 'postgres://notifyd:pw@db:5432/notifyd',
    });
    expect(() => loadConfig(env)).not.toThrow();
    expect(missingProductionSecrets(env)).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split('\n').filter((line) => /^FROM /.test(line));

  it('is multi-stage, with a Node 24 slim runtime', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[stages.length - 1]).toMatch(/^FROM node:24(\.\d+)*-slim/);
  });

  it('runs as a non-root user, with production dependencies only and a readiness healthcheck', () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^USER (node|\d+)/m);
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n?.*\/v1\/health\/ready/m);
  });
});
