/**
 * Opening the desk store a selection names (select.ts): the file engine in the config folder, or the team store on
 * PostgreSQL. Each engine is loaded only when it is the one selected.
 */
import type { StoreSelection } from './select.js';
import type { DeskStore } from './types.js';

export interface OpenDeskOptions {
  /** The config folder (the file engine's home). */
  dir: string;
  /** Who opens it: recorded as who applied a migration. */
  operator: string;
  /** Warnings of the file engine (a skipped line). */
  onWarning?: (message: string) => void;
}

export async function openDeskStore(selection: StoreSelection, o: OpenDeskOptions): Promise<DeskStore> {
  if (selection.engine === 'file') {
    const { openFileStore } = await import('./file/index.js');
    return openFileStore(o.dir, { onWarning: o.onWarning });
  }
  const { openPgStore } = await import('./pg/index.js');
  return openPgStore(selection.url, { operator: o.operator });
}
