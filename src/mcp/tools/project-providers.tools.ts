import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { presentProjectProvider } from '../../project-providers/project-provider.presenter.js';
import { ProjectProvidersService } from '../../project-providers/project-providers.service.js';
import { defineTool, DESTRUCTIVE_WRITE, IDEMPOTENT_WRITE, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';

const providerView = z.object({
  project_id: z.string(),
  channel: z.string(),
  provider: z.string(),
  settings: z.record(z.string(), z.string()).describe('Secret settings are masked; they are never returned'),
  key_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

const projectArg = z.string().min(1).max(64).describe('Project id (see list_projects)');
const channelArg = z
  .string()
  .regex(/^[a-z_]{2,20}$/, 'must be a channel such as email or sms')
  .describe('Channel, e.g. email');

/**
 * A project's own provider accounts (issue 3, per-project providers) for agents: the same
 * service as /v1/admin/projects/:id/providers, so credentials are encrypted and masked alike.
 */
@Injectable()
export class ProjectProvidersTools implements McpToolProvider {
  constructor(private readonly providers: ProjectProvidersService) {}

  tools() {
    return [
      defineTool({
        name: 'list_project_providers',
        title: 'List a project’s own providers',
        description:
          'The provider accounts a project uses instead of the instance’s, per channel, with secrets masked. Its jobs on those channels go through these accounts, on lanes of their own.',
        annotations: READ_ONLY,
        audience: 'operator',
        input: z.strictObject({ project_id: projectArg }),
        output: z.object({ providers: z.array(providerView) }),
        run: async ({ project_id }) => {
          const providers = (await this.providers.list(project_id)).map(presentProjectProvider);
          return {
            structured: { providers },
            text: providers.length
              ? providers.map((p) => `${p.channel}: ${p.provider} (key ${p.key_id})`).join('\n')
              : `Project ${project_id} uses the instance's providers on every channel.`,
          };
        },
      }),
      defineTool({
        name: 'set_project_provider',
        title: 'Give a project its own provider',
        description:
          'Store a project’s own provider account on a channel (e.g. its Resend API key); the settings are checked like the instance’s, secrets are encrypted at rest and never shown again. The channel must be configured on the instance. Replaces the project’s previous account on that channel.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'operator',
        input: z.strictObject({
          project_id: projectArg,
          channel: channelArg,
          provider: z
            .string()
            .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'must be a provider name such as resend, postmark, ses or sendgrid')
            .describe('Provider name, e.g. resend'),
          settings: z
            .record(z.string(), z.string().max(10_000))
            .describe('The provider’s settings, e.g. {"api_key": "re_…"}'),
        }),
        output: providerView,
        run: async ({ project_id, channel, provider, settings }, context) => {
          const view = presentProjectProvider(
            await this.providers.put(project_id, channel, provider, settings, context.actor),
          );
          return { structured: view, text: `${project_id} now sends ${channel} through its own ${provider} account.` };
        },
      }),
      defineTool({
        name: 'remove_project_provider',
        title: 'Remove a project’s own provider',
        description:
          'Delete a project’s own provider account on a channel (its credentials are gone for good); its jobs use the instance’s provider again.',
        annotations: DESTRUCTIVE_WRITE,
        audience: 'operator',
        input: z.strictObject({ project_id: projectArg, channel: channelArg }),
        output: z.object({ success: z.boolean() }),
        run: async ({ project_id, channel }, context) => {
          await this.providers.delete(project_id, channel, context.actor);
          return {
            structured: { success: true },
            text: `${project_id} uses the instance's ${channel} provider again.`,
          };
        },
      }),
      defineTool({
        name: 'reseal_project_providers',
        title: 'Re-encrypt project credentials',
        description:
          'After rotating NOTIFYD_SECRET_KEY (new NOTIFYD_SECRET_KEY_ID, the old key kept in NOTIFYD_PREVIOUS_SECRET_KEYS): re-encrypt every project’s stored provider credentials under the current key. ' +
          'Rows no key can open are listed in unreadable (set them again with set_project_provider). Running it again reseals nothing more.',
        annotations: IDEMPOTENT_WRITE,
        audience: 'operator',
        input: z.strictObject({}),
        output: z.object({
          resealed: z.number(),
          unreadable: z.array(z.string()).describe('project/channel of rows no configured key opens'),
        }),
        run: async (_args, context) => {
          const result = await this.providers.reseal(context.actor);
          return {
            structured: result,
            text: `${result.resealed} credential row(s) re-encrypted${result.unreadable.length ? `; unreadable: ${result.unreadable.join(', ')}` : ''}.`,
          };
        },
      }),
    ];
  }
}
