import { withDevProfile } from '../config/dev-profile.js';
import type { StartNotifyd } from './start.js';

/** `notifyd dev` (`npm run dev`): `serve` under the development profile (src/config/dev-profile.ts). */
export async function dev(startNotifyd: StartNotifyd): Promise<number> {
  let env: NodeJS.ProcessEnv;
  try {
    env = withDevProfile(process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 78;
  }
  for (const [name, value] of Object.entries(env)) if (process.env[name] !== value) process.env[name] = value;
  return (await import('./serve.command.js')).serve(startNotifyd);
}
