/**
 * Inspecting what a screen shows, the same way on every screen: `y` opens the selected row's resource as
 * received (raw view: JSON, coloured, scrollable, `w` writes it to a file), `X` (or `:xray`) the X-ray of the
 * selected case (what is related to it, src/core/xray). Both open over the current screen as a stack of their
 * own (Esc goes back one, then to the screen as it was); an X-ray element opens its raw view, or jumps to the
 * screen that holds it (a chat thread opens in Chat).
 *
 * A screen offers what it can: `useInspectKeys({raw, xray}, {active})` binds `y` and `X` and tells `:xray`
 * what is selected (ListView does it for its rows through its `raw` and `xray` props). A screen that can be
 * jumped to reads the jump with `useJump(screen, handler)`.
 */
import type React from 'react';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { XrayJump } from '../../core/xray/model.js';
import type { Appointment } from '../../core/schemas/appointment.js';
import type { MedicationRequest, MedicationRow } from '../../core/schemas/medication.js';
import { ScopeContext } from '../keys/router.js';
import { useKeys } from '../keys/useKeys.js';
import { useRefState } from '../keys/useRefState.js';
import type { ScreenId } from '../screens/types.js';

/** A resource to show raw: what it is, the value as received, and a base for the file name `w` writes. */
export interface RawItem {
  title: string;
  value: unknown;
  /** File name base: `appointment-appt-1`. */
  name: string;
}

export type XraySubject =
  | { kind: 'appointment'; appointment: Appointment }
  | { kind: 'thread'; thread: string }
  | { kind: 'medication'; request: MedicationRequest; rows?: readonly MedicationRow[] };

export type InspectStep = { kind: 'raw'; item: RawItem } | { kind: 'xray'; subject: XraySubject };

export interface Offer {
  raw?: () => RawItem | undefined;
  xray?: () => XraySubject | undefined;
}

export interface Inspect {
  /** The open steps, first opened first; empty when nothing is inspected. */
  steps: readonly InspectStep[];
  raw(item: RawItem): void;
  xray(subject: XraySubject): void;
  /** One step back; the last one closes. */
  back(): void;
  close(): void;
  /** Close, show the screen the jump names, and hand it the jump. */
  jump(j: XrayJump): void;
  /** The X-ray of what the given screen has selected (`:xray`); false when it offers none. */
  xrayOf(scope: string): boolean;
  /** Folder `w` writes raw files to. */
  exportDir: string;
  /** For useInspectKeys and useJump. */
  offers: Map<string, Offer[]>;
  pendingJump: XrayJump | undefined;
  takeJump(screen: XrayJump['screen']): XrayJump | undefined;
}

const InspectContext = createContext<Inspect | null>(null);

export function useInspect(): Inspect | null {
  return useContext(InspectContext);
}

export interface InspectProviderProps {
  /** Show a screen (a jump). */
  show: (id: ScreenId) => void;
  exportDir?: string;
  children: React.ReactNode;
}

export function InspectProvider(p: InspectProviderProps) {
  const [steps, setSteps, stepsRef] = useRefState<readonly InspectStep[]>([]);
  const [pendingJump, setPendingJump] = useState<XrayJump | undefined>();
  const jumpRef = useRef<XrayJump | undefined>(undefined);
  const offers = useRef(new Map<string, Offer[]>()).current;
  const show = useRef(p.show);
  show.current = p.show;
  const exportDir = p.exportDir ?? process.cwd();

  const push = useCallback((s: InspectStep) => setSteps([...stepsRef.current, s]), [setSteps, stepsRef]);
  const value = useMemo<Inspect>(
    () => ({
      steps,
      raw: (item) => push({ kind: 'raw', item }),
      xray: (subject) => push({ kind: 'xray', subject }),
      back: () => setSteps(stepsRef.current.slice(0, -1)),
      close: () => setSteps([]),
      jump: (j) => {
        setSteps([]);
        jumpRef.current = j;
        setPendingJump(j);
        show.current(j.screen);
      },
      xrayOf: (scope) => {
        const list = offers.get(scope) ?? [];
        for (let i = list.length - 1; i >= 0; i--) {
          const subject = list[i]!.xray?.();
          if (subject) {
            push({ kind: 'xray', subject });
            return true;
          }
        }
        return false;
      },
      exportDir,
      offers,
      pendingJump,
      takeJump: (screen) => {
        const j = jumpRef.current;
        if (!j || j.screen !== screen) return undefined;
        jumpRef.current = undefined;
        setPendingJump(undefined);
        return j;
      },
    }),
    [steps, push, setSteps, stepsRef, offers, exportDir, pendingJump],
  );
  return <InspectContext.Provider value={value}>{p.children}</InspectContext.Provider>;
}

/**
 * Bind `y` (raw view of what is selected) and `X` (its X-ray) while `active`, and offer the same to `:xray`.
 * Either may be left out; a function returning undefined (nothing selected) does nothing.
 */
export function useInspectKeys(offer: Offer, o: { active?: boolean } = {}): void {
  const inspect = useInspect();
  const { scope, shown } = useContext(ScopeContext);
  const active = (o.active ?? true) && shown && !!inspect;
  const latest = useRef(offer);
  latest.current = offer;
  const hasRaw = !!offer.raw;
  const hasXray = !!offer.xray;
  useKeys(
    [
      ...(hasRaw
        ? [
            {
              keys: ['y'],
              label: 'raw',
              help: 'the selected resource as received (JSON; w writes it to a file)',
              run: () => {
                const item = latest.current.raw?.();
                // Nothing selected: the key goes on (the App says there is nothing to show).
                if (!item) return false;
                inspect?.raw(item);
              },
            },
          ]
        : []),
      ...(hasXray
        ? [
            {
              keys: ['X'],
              label: 'x-ray',
              help: 'X-ray: what is related to the selected case (also :xray), read-only',
              run: () => {
                const subject = latest.current.xray?.();
                if (!subject) return false;
                inspect?.xray(subject);
              },
            },
          ]
        : []),
    ],
    { active: active && (hasRaw || hasXray) },
  );
  // Offer the X-ray to `:xray` while active (layout effect: a palette command right after sees it).
  useLayoutEffect(() => {
    if (!active || !inspect || !hasXray) return;
    const mine: Offer = { xray: () => latest.current.xray?.() };
    const list = inspect.offers.get(scope) ?? [];
    inspect.offers.set(scope, [...list, mine]);
    return () => {
      const now = inspect.offers.get(scope) ?? [];
      inspect.offers.set(
        scope,
        now.filter((x) => x !== mine),
      );
    };
  }, [active, inspect, hasXray, scope]);
}

/** A jump to this screen (from an X-ray element): `handler` gets it once, when it arrives or the screen mounts. */
export function useJump(screen: XrayJump['screen'], handler: (j: XrayJump) => void): void {
  const inspect = useInspect();
  const h = useRef(handler);
  h.current = handler;
  const pending = inspect?.pendingJump;
  useEffect(() => {
    if (!pending || pending.screen !== screen) return;
    const j = inspect?.takeJump(screen);
    if (j) h.current(j);
  }, [pending, screen, inspect]);
}
