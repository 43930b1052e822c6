// Generates src/metadata.ts: the @nestjs/swagger plugin's reading of every *.dto.ts (types,
// optionality, doc comments and @example tags) as plain data, so that the OpenAPI document is
// complete whether the code was compiled by tsc, run by SWC under Jest, or by `nest build`.
// Run it after changing a DTO: `npm run openapi:metadata` (CI fails when it is stale).
import { PluginMetadataGenerator } from '@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator.js';
import { ReadonlyVisitor } from '@nestjs/swagger/plugin';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
new PluginMetadataGenerator().generate({
  visitors: [
    new ReadonlyVisitor({
      introspectComments: true,
      pathToSource: join(root, 'src'),
      classValidatorShim: true,
      dtoFileNameSuffix: ['.dto.ts'],
      controllerFileNameSuffix: ['.controller.ts'],
    }),
  ],
  outputDir: join(root, 'src'),
  watch: false,
  tsconfigPath: 'tsconfig.build.json',
});
