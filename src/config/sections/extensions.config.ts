import { defineSection } from '../define-section.js';
import { envList } from '../env-helpers.js';

/** Extra Nest modules notifyd imports at boot: an enterprise team's own connectors (docs/CONNECTORS.md). */
export const extensionsSection = defineSection(
  {
    /**
     * Comma list of modules to import, each a path to a compiled ES module (relative to the
     * working directory) or an installed package, optionally `#ExportName` (default: the
     * default export, else the one exported Nest module).
     */
    NOTIFYD_MODULES: envList(),
  },
  (env) => ({ modules: env.NOTIFYD_MODULES ?? [] }),
);

export type ExtensionsConfig = ReturnType<typeof extensionsSection.build>;
