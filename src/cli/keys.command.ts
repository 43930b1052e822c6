import { parseArgs, UsageError } from './args.js';
import { EXIT, NotifydClient } from './http-client.js';
import { print, printJson, table } from './output.js';

interface Project {
  id: string;
  name: string;
  api_key_hint: string | null;
  secondary_api_key_hint: string | null;
  created_at: string;
}

const USAGE = `usage: notifyd keys [--json]                     list projects and their key hints
       notifyd keys create <project> [--name N]     new project; prints its key once
       notifyd keys rotate <project>                new key; the old one stays valid until revoked
       notifyd keys revoke <project>                revoke the old key after a rotation`;

/** Project keys: list hints, create a project (key shown once), rotate, revoke the old key. */
export async function keys(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs(argv, { boolean: ['json'], string: ['url', 'key', 'name'] });
  const client = NotifydClient.fromEnv(flags);
  const [action, project, extra] = positionals;
  const path = (suffix = '') => `/v1/admin/projects/${encodeURIComponent(project)}${suffix}`;
  if (!action || action === 'list') {
    const result = await client.request<{ projects: Project[] }>('GET', '/v1/admin/projects');
    if (flags.json) printJson(result);
    else
      print(
        table(
          ['PROJECT', 'NAME', 'KEY', 'PREVIOUS KEY (valid until revoked)', 'CREATED'],
          result.projects.map((p) => [p.id, p.name, p.api_key_hint, p.secondary_api_key_hint, p.created_at]),
        ),
      );
    return EXIT.ok;
  }
  if (!project || extra) throw new UsageError(USAGE);
  if (action === 'create') {
    const result = await client.request<{ project: { id: string; api_key: string }; warning: string }>(
      'POST',
      '/v1/admin/projects',
      { id: project, name: typeof flags.name === 'string' ? flags.name : project },
    );
    if (flags.json) printJson(result);
    else print(`${result.project.api_key}\n${result.warning}`);
    return EXIT.ok;
  }
  if (action === 'rotate') {
    const result = await client.request<{ new_api_key: string; note: string }>('POST', path('/rotate-key'));
    if (flags.json) printJson(result);
    else
      print(
        `${result.new_api_key}\nStore it now: it cannot be shown again. ${result.note.replace(/POST \S+/, `notifyd keys revoke ${project}`)}`,
      );
    return EXIT.ok;
  }
  if (action === 'revoke') {
    const result = await client.request<{ success: boolean }>('POST', path('/revoke-secondary'));
    if (flags.json) printJson(result);
    else print(`The previous key of ${project} is revoked.`);
    return EXIT.ok;
  }
  throw new UsageError(USAGE);
}
