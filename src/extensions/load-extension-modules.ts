import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Type } from '@nestjs/common';

/** Nest's @Module() stores its metadata under these keys; one of them marks a module class. */
const MODULE_KEYS = ['imports', 'providers', 'controllers', 'exports'];

const isNestModule = (value: unknown): value is Type<unknown> =>
  typeof value === 'function' && MODULE_KEYS.some((key) => Reflect.getMetadata(key, value) !== undefined);

/**
 * Imports the modules listed in NOTIFYD_MODULES, before Nest starts, so that their
 * @NotifyConnector() classes are discovered like notifyd's own. Each entry is a path to a
 * compiled ES module (relative to the working directory) or a package name, optionally
 * followed by `#ExportName`. Start-up fails with a message naming the entry when it cannot be
 * loaded or exports no Nest module.
 */
export async function loadExtensionModules(entries: readonly string[], cwd = process.cwd()): Promise<Type<unknown>[]> {
  const modules: Type<unknown>[] = [];
  for (const entry of entries) {
    const [specifier, exportName] = entry.split('#');
    const local = specifier.startsWith('.') || isAbsolute(specifier);
    const target = local ? pathToFileURL(resolve(cwd, specifier)).href : specifier;
    let loaded: Record<string, unknown>;
    try {
      loaded = (await import(target)) as Record<string, unknown>;
    } catch (err) {
      throw new Error(
        `NOTIFYD_MODULES: cannot load '${entry}' (${(err as Error).message}). Give the path of a compiled ES module, relative to ${cwd}, or an installed package name.`,
      );
    }
    const chosen = exportName
      ? loaded[exportName]
      : isNestModule(loaded.default)
        ? loaded.default
        : single(Object.values(loaded).filter(isNestModule));
    if (!isNestModule(chosen)) {
      throw new Error(
        `NOTIFYD_MODULES: '${entry}' exports ${exportName ? `no Nest module named ${exportName}` : 'no single Nest module'}; export one (default, or name it with '${specifier}#ExportName').`,
      );
    }
    modules.push(chosen);
  }
  return modules;
}

const single = <T>(values: T[]): T | undefined => (values.length === 1 ? values[0] : undefined);
