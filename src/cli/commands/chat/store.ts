/** The profile's thread store, as the chat commands open it (src/core/threads). */
import { ConfigError } from '../../../core/errors.js';
import { type ThreadStore, openThreadStore } from '../../../core/threads/index.js';
import type { Context } from '../../context.js';

/** The profile's thread store; warnings about skipped lines go to stderr. */
export async function threadStore(ctx: Context): Promise<ThreadStore> {
  const profile = await ctx.profile();
  return openThreadStore(await ctx.configDir(), profile.name, { onWarning: (w) => ctx.err(`pdesk: warning: ${w}`) });
}

/**
 * Open the store for writing before anything is sent, so a store that cannot be written stops the command
 * first. Under --dry-run it is opened but not prepared: nothing is written, the request is printed instead.
 */
export async function writableStore(ctx: Context): Promise<ThreadStore> {
  const store = await threadStore(ctx);
  if (ctx.dryRun) return store;
  try {
    await store.prepare();
  } catch (e) {
    throw new ConfigError(
      `The thread store ${store.path} cannot be opened for writing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was sent.`,
    );
  }
  return store;
}

/** Run a recorded chat operation (core/threads/recorded.ts), closing the store afterwards. */
export async function withStore<T>(store: ThreadStore, fn: (store: ThreadStore) => Promise<T>): Promise<T> {
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
