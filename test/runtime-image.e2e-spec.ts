import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ADMIN_KEY } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/**
 * The image's runtime stage without Docker (no daemon in CI): what `npm ci --omit=dev` keeps
 * (package-lock.json's non-dev entries), the Dockerfile's COPY lines, and a production start of
 * that tree. A runtime import of a devDependency, or an asset the image forgets, fails here
 * instead of in the first container someone runs. Needs dist/ (`npm test` builds it first).
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; optional?: boolean }>;
};

/** Every JavaScript file under dist/src. */
function distFiles(dir = join(root, 'dist', 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? distFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

/** The package specifiers dist/src imports, statically or with import(), each with one file that does. */
function runtimeSpecifiers(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of distFiles()) {
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (fileName.startsWith('.') || fileName.startsWith('node:') || builtinModules.includes(fileName.split('/')[0]))
        continue;
      if (!found.has(fileName)) found.set(fileName, relative(root, file));
    }
  }
  return found;
}

/** The packages dist/src imports, each with one file that does. */
function runtimeImports(): Map<string, string> {
  const packages = new Map<string, string>();
  for (const [specifier, file] of runtimeSpecifiers()) {
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (!packages.has(name)) packages.set(name, file);
  }
  return packages;
}

describe('the image runtime stage (Dockerfile, without Docker)', () => {
  it('runs as a non-root user, installs with npm ci --omit=dev and copies the compiled output and the inbox web assets', () => {
    expect(runtimeStage).toMatch(/^USER (node|[1-9]\d*)\b/m);
    expect(runtimeStage).toMatch(/^RUN npm ci --omit=dev\b/m);
    expect(runtimeStage).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtimeStage).toMatch(/^COPY --from=build \/app\/src\/inbox\/web \.\/src\/inbox\/web$/m);
    // The controller serving the component reads it from there (package root/src/inbox/web).
    expect(existsSync(join(root, 'src', 'inbox', 'web', 'notifyd-inbox.js'))).toBe(true);
    expect(runtimeStage.indexOf('USER ')).toBeGreaterThan(runtimeStage.indexOf('COPY --from=build /app/src/inbox/web'));
  });

  it('every package the built code imports at runtime is a dependency that npm ci --omit=dev installs', () => {
    const imports = runtimeImports();
    // A sanity floor: the walk sees the framework and the lazily imported provider SDKs.
    for (const name of ['@nestjs/core', 'pg', 'twilio', 'nodemailer', 'web-push', 'aws4'])
      expect(imports.has(name)).toBe(true);
    const notDependencies = [...imports]
      .filter(([name]) => !(name in pkg.dependencies))
      .map(([name, file]) => `${name} (${file})`);
    expect(notDependencies).toEqual([]);
    const devOnly = [...imports.keys()].filter((name) => lock.packages[`node_modules/${name}`]?.dev);
    expect(devOnly).toEqual([]);
  });

  describe('a production start of the pruned tree', () => {
    let dir: string;
    let db: TestDatabase;
    let child: ChildProcess | undefined;
    const output: string[] = [];

    beforeAll(async () => {
      db = await createTestDatabase();
      dir = mkdtempSync(join(tmpdir(), 'notifyd-runtime-'));
      // What `npm ci --omit=dev` installs: package-lock.json's entries not marked dev (optional
      // platform packages only when this machine has them), hard-linked from node_modules.
      const modules = realpathSync(join(root, 'node_modules'));
      for (const [key, entry] of Object.entries(lock.packages)) {
        if (!key.startsWith('node_modules/') || entry.dev || key.lastIndexOf('node_modules/') !== 0) continue;
        const from = join(modules, key.slice('node_modules/'.length));
        if (!existsSync(from)) {
          if (entry.optional) continue;
          throw new Error(`${key} is in package-lock.json but not installed: run npm ci`);
        }
        mkdirSync(dirname(join(dir, key)), { recursive: true });
        execFileSync('cp', ['-al', from, join(dir, key)]);
      }
      // The Dockerfile's COPY lines, from the build output.
      for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(dir, file));
      cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
      cpSync(join(root, 'src', 'inbox', 'web'), join(dir, 'src', 'inbox', 'web'), { recursive: true });
    }, 120_000);

    afterAll(async () => {
      child?.kill('SIGKILL');
      if (dir) rmSync(dir, { recursive: true, force: true });
      await db?.drop();
    });

    it('has no devDependency (the copy is what --omit=dev leaves)', () => {
      for (const name of Object.keys(pkg.devDependencies)) {
        if (lock.packages[`node_modules/${name}`]?.dev) expect(existsSync(join(dir, 'node_modules', name))).toBe(false);
      }
      expect(statSync(join(dir, 'node_modules', '@nestjs', 'core')).isDirectory()).toBe(true);
    });

    it('resolves and loads every module the built code imports, from the pruned tree alone', () => {
      const names = [...runtimeSpecifiers().keys()];
      const probe = join(dir, 'probe.mjs');
      writeFileSync(probe, `for (const name of ${JSON.stringify(names)}) await import(name);\nconsole.log('ok');\n`);
      // The temp dir is outside the repository: nothing resolves from its node_modules but the pruned copy.
      expect(execFileSync(process.execPath, [probe], { cwd: dir, encoding: 'utf8', timeout: 60_000 }).trim()).toBe(
        'ok',
      );
    }, 90_000);

    it('starts as the image does (node dist/src/cli.js serve, NODE_ENV=production), gets ready and serves the inbox component', async () => {
      const port = await freePort();
      child = spawn(process.execPath, ['dist/src/cli.js', 'serve'], {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: db.url,
          ADMIN_API_KEY: ADMIN_KEY,
          JWT_SECRET: 'runtime-image-test-secret-0123456789',
          LOG_LEVEL: 'warn',
          DATABASE_MAX_CONNECTIONS: '4',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
      child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      let ready = 0;
      while (Date.now() < deadline && ready !== 200 && child.exitCode === null) {
        ready = await fetch(`${base}/v1/health/ready`).then(
          (r) => r.status,
          () => 0,
        );
        if (ready !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      if (ready !== 200)
        throw new Error(`the pruned runtime did not get ready (exit ${child.exitCode}):\n${output.join('')}`);
      const widget = await fetch(`${base}/inbox/notifyd-inbox.js`);
      expect(widget.status).toBe(200);
      expect(await widget.text()).toContain('notifyd-inbox');
    }, 90_000);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
