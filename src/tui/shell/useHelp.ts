/**
 * The `?` help overlay's state: closed, or the keys of the screen shown and the keys of everywhere, read from
 * the key router when it opens (every binding with a help text or label, each key listed once).
 */
import { useState } from 'react';
import { keyLabel } from '../keys/names.js';
import type { Registration } from '../keys/router.js';
import { useKeyRouter } from '../keys/useKeyRouter.js';

export interface HelpSection {
  title: string;
  rows: Array<[string, string]>;
}

export interface Help {
  /** The sections shown; undefined while the help is closed. */
  sections?: HelpSection[];
  open(): void;
  close(): void;
}

/** The help of a screen titled `title` from the registrations taking keys now (dispatch order). */
export function helpSections(title: string, active: readonly Registration[]): HelpSection[] {
  const mine: Array<[string, string]> = [];
  const global: Array<[string, string]> = [];
  const seen = { mine: new Set<string>(), global: new Set<string>() };
  for (const r of active) {
    const section = r.layer === 'global' ? 'global' : 'mine';
    for (const b of r.bindings) {
      const text = b.help ?? b.label;
      if (!text) continue;
      const keys =
        b.helpKeys ??
        b.keys
          .filter((k) => k !== 'text')
          .map(keyLabel)
          .join(' ');
      if (seen[section].has(keys)) continue;
      seen[section].add(keys);
      (section === 'global' ? global : mine).push([keys, text]);
    }
  }
  return [
    { title: `${title} screen`, rows: mine },
    { title: 'Everywhere', rows: [...global, ['^C', 'quit']] },
  ];
}

/** `title`: the title of the screen shown. */
export function useHelp(title: string): Help {
  const router = useKeyRouter();
  const [sections, setSections] = useState<HelpSection[] | undefined>();
  return {
    sections,
    open: () => setSections(helpSections(title, router.active())),
    close: () => setSections(undefined),
  };
}
