import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The deployment files are code nobody runs in CI (no Docker daemon there), so their shape is
 * checked here: a compose file that lost its healthcheck or stopped requiring a secret would
 * otherwise only be noticed in production.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface ComposeService {
  image?: string;
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
      expect(service.environment?.DATABASE_URL).toMatch(/^postgres:\/\/notifyd:\$\{POSTGRES_PASSWORD:\?.+\}@db:5432\/notifyd$/);
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
    const documented = new Set(
      read('.env.example')
        .split('\n')
        .map((line) => line.match(/^([A-Z][A-Z0-9_]*)=/)?.[1])
        .filter(Boolean),
    );
    const used = new Set([...read('docker-compose.yml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    expect([...used].filter((v) => !documented.has(v))).toEqual([]);
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
