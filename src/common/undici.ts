import type * as Undici from 'undici';

let loading: Promise<typeof Undici> | undefined;

/**
 * undici, imported at the first provider request rather than at boot: a worker whose channels
 * send nothing over HTTP (or an API process that never calls a provider) does not carry it.
 * Every caller shares one import (and so one module instance, whose Agents pool connections).
 */
export function undici(): Promise<typeof Undici> {
  return (loading ??= import('undici'));
}
