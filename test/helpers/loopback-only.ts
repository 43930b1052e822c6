import net from 'node:net';

/**
 * Makes any attempt to open a TCP connection to an IP literal other than loopback throw
 * synchronously, before a packet leaves the machine, and records every attempted target. Host
 * names pass (tests resolve them with injected resolvers, or `localhost`). Install it in suites
 * that exercise address checks, so that a bug in the guard cannot reach a real private address.
 */
export function installLoopbackOnlyGuard(): { attempts: string[]; restore: () => void } {
  const original = net.Socket.prototype.connect;
  const attempts: string[] = [];
  net.Socket.prototype.connect = function patched(this: net.Socket, ...args: unknown[]) {
    const first = args[0] as { host?: string; port?: number; path?: string } | number | string;
    const host =
      typeof first === 'object' && first !== null
        ? first.host
        : typeof first === 'number'
          ? (args[1] as string | undefined)
          : undefined;
    const path = typeof first === 'object' && first !== null ? first.path : undefined;
    if (!path) {
      attempts.push(String(host ?? 'localhost'));
      if (host && net.isIP(host) && !/^(127\.|::1$|::ffff:127\.)/.test(host)) {
        throw new Error(`test guard: refusing a connection to ${host}; tests may only reach loopback`);
      }
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
  return { attempts, restore: () => void (net.Socket.prototype.connect = original) };
}
