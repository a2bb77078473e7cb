/**
 * The screen contract of the pdesk TUI. Read this before writing a screen.
 *
 * ## What a screen is
 * A screen lives in its folder, `screens/<name>/` (below). Its `Screen` (below) is registered in
 * `screens/index.ts`: an id, the digit key that opens it (`0`–`6`), the palette command (`:slots`), a title and
 * a React component getting `ScreenProps` ({width, height}). The App (app.tsx, its parts in shell/) draws the
 * header (profile, environment — production in red —, appointment API version, connection),
 * the tab line, the status line and the key-hint line; the screen draws exactly `height` lines of at most
 * `width` columns in between (use `<Box height={height} overflowY="hidden">` and `wrap="truncate"` Text; never
 * let a line wrap: the frame must stay ≤ rows − 1 lines or Ink flickers). Prefer `overflowY` to `overflow`:
 * horizontal clipping makes Ink slice every line again on every frame (cut lines yourself with `fit`), and
 * prefer ASCII in long lists (Ink measures non-ASCII text character by character). A screen is mounted the first time
 * it is shown and stays mounted (hidden) while others are shown, so its state — a half-typed form — survives
 * switching screens. It restarts when the operator switches profile (`:profile <name>`, Enter on Systems),
 * unless it is about every profile (`acrossProfiles`: Systems).
 *
 * ## Lists: sort, refresh time, raw view, X-ray (components/ListView.tsx, inspect/)
 * Give a list `sort={{columns, initial}}` (module-level columns, each with the letter `s` takes), `refreshedAt`
 * (when its items were read), `raw={(row) => ({title, value, name})}` (`y`: the resource as received) and, for a
 * case, `xray={(row) => subject}` (`X`, `:xray`). A step without a list offers the same with
 * `useInspectKeys({raw, xray}, {active})`. A screen an X-ray element jumps to reads it with `useJump(screen, fn)`.
 * Id columns get their full width first (`idWidth` in format.ts).
 *
 * ## Server calls: `useDesk()` (desk.tsx)
 * No HTTP code in src/tui: call the core API functions (src/core/api/*.ts) with `desk.client`, inside
 * `desk.run(label, signal => apiCall(desk.client, …, {signal}))`. `run` shows `label` with a spinner in the
 * status line, lets the operator abandon it with Esc (the signal aborts), records the connection state for
 * the header, shows an error as its message + detail lines (the OperationOutcome text) in the status line,
 * and never throws: it returns `{ok: true, value}` or `{ok: false, error, aborted}`. Pass `{sends: true}` for a
 * request that must not be repeated (a POST): abandoned, it may still take effect, and the status line warns
 * so. While any request runs a `Form` cannot be submitted (no second send). On failure keep what the
 * operator typed (forms are controlled: their values live in the screen's hook, useForm, and the form stays open).
 * `desk.ok(text)` / `desk.info(text)` / `desk.error(e)` set the status line yourself. What a screen's code says
 * (these and its tasks' messages) is that screen's: shown while it is the one shown, kept for it while another is,
 * and gone once the operator has left it. `desk.profile` is the
 * profile; `desk.receiver` / `desk.sandbox` say whether a push receiver / sandbox runs in-process.
 *
 * ## Keys: `useKeys(bindings, {layer, capture, active})` (keys/useKeys.ts; the router: keys/router.tsx)
 * The App owns the only Ink `useInput` and routes each key to registered bindings, highest layer first:
 * `modal` (help, palette, Confirm) > `busy` (Esc abandons a running request) > `input` (forms, the list
 * filter) > `screen` (your keys, list movement) > `global` (0–6 : ? q Esc). A binding is
 * `{keys: ['c'], label: 'cancel', help: 'cancel the selected appointment', run}`: `keys` are characters or
 * names (`enter esc up down left right pgup pgdn home end tab shift-tab backspace space ctrl-x text`);
 * `label` puts it on the hint line; `help` (or label) lists it in the `?` overlay; `run` returning `false`
 * passes the key on. `capture: true` swallows every unbound key (text inputs), so typing `q` in a form does
 * not quit. Pass `active: false` to switch a registration off (hidden screens are switched off for you).
 * Do not bind in a screen the keys the list binds (↑↓ j k PgUp PgDn Home End g G / Enter s y X).
 *
 * Keys can arrive faster than Ink renders (it renders a state change in a later tick, and passive effects
 * run later still): a handler must not read state from its render closure when a previous key may have
 * changed it. Keep such state in `useRefState` (keys/useRefState.ts) and read `ref.current` in handlers; anything a
 * handler needs from a child (e.g. ListView's `onSelect`) is delivered in a layout effect.
 *
 * ## A screen's folder: its hook, its steps, its component
 * A screen is a stack of steps (steps.tsx), as k9s keeps its pages: the root step is the screen's list;
 * opening something pushes a step (`{kind: 'detail', id}`), Esc pops it. `screens/<name>/` holds three parts:
 * - `use<Thing>.ts`, the hook holding the state, the loaders and the transitions: it owns the stack
 *   (`useStepStack<Step>({kind: 'list'})`), the forms (`useForm(FIELDS, initial)` from src/tui/hooks/: values,
 *   errors in the form's words, where the cursor goes) and the calls (desk.run); it draws nothing, and is
 *   tested with test/tui/hook-harness.tsx on canned answers (no sandbox);
 * - `steps.tsx`, one small component per step (props: `StepViewProps` and the hook's result), drawing what the
 *   hook holds and calling its actions; it binds the keys of its step with `useKeys(…, {active})` (`active` is
 *   true for the top step only);
 * - `screen.tsx`, the screen component: `useStepBack(hook.stack)` (Esc pops; at the root it passes on, and the
 *   App goes back to the previous screen), the keys of the whole screen, and `<StepStackView stack={…}>{(step,
 *   {active}) => <TheStep …/>}</…>`, which keeps the steps below the top mounted and hidden (a list keeps its
 *   filter and selection under a form).
 * Beside them, what only that screen uses: its rows' text (`format.ts`), more hooks (`chat/useChatWrites.ts`).
 * The rules of a write (booking, cancelling, reordering) are core's: a screen maps its form to them. A hook no one
 * screen owns goes to src/tui/hooks/ (useForm, useDeskThreads).
 * A write goes form → `push({kind: 'confirm', body})` → `y`: pop back to the form (`form.refocus()`), then
 * send; `n`: pop and `form.refocus()` (the cursor goes to the field to fix): `confirmation(stack, 'confirm',
 * form)` (steps.tsx) does both. A core builder's FieldError goes to `form.fail(e)`, which words it with the
 * form's labels (field-errors.ts) and moves the cursor there: name form fields as core names them (`patient`,
 * `from`, `recipient`).
 *
 * ## Building blocks (components/)
 * - `ListView` — windowed list (only the visible rows are rendered; 10,000 rows are fine) with `/` filter,
 *   ↑↓ j k PgUp PgDn Home End g G, Enter → `onOpen(item)`, optional group headings (`groupOf`), a title with
 *   the position, a column header, `onSelect(item)` for actions on the selected row.
 * - `Form` — text and choice fields, controlled (`{...form.bind}` from useForm), Enter next/submit, Esc cancel.
 * - `Confirm` — question + what will be sent (e.g. `jsonLines(body)` from format.ts), y/Enter or n/Esc.
 *   Build the body with the core builder (e.g. `buildAppointment`) first, show it, then send exactly it.
 * - `Pane` (components/Pane.tsx) — a titled block of text lines (details, "nothing here yet"); `ScrollText`
 *   the same, scrollable.
 * - format.ts: `clean(text)` strips control sequences from server text (use it on every server string you
 *   render), `fit(text, width, pad)`, `columns(values, widths, width)`, `jsonLines(value)`.
 *
 * ## Tests
 * test/tui/ mirrors src/tui/. test/tui/harness.tsx renders the App against a real sandbox with a fixed size
 * and gives `press(keys)`, `frame()`, `waitFor(text)` (test/tui/screens/<name>/screen.test.tsx);
 * test/tui/hook-harness.tsx renders a hook (test/tui/screens/<name>/use<Thing>.test.tsx) or a component with a
 * client answering from canned resources.
 */
import type { ComponentType } from 'react';

export type ScreenId = 'systems' | 'slots' | 'appointments' | 'chat' | 'notify' | 'meds' | 'check';

export interface ScreenProps {
  /** Columns the screen may use. */
  width: number;
  /** Lines the screen must fill, no more. */
  height: number;
}

export interface Screen {
  id: ScreenId;
  /** The digit key that opens it. */
  key: '0' | '1' | '2' | '3' | '4' | '5' | '6';
  /** Tab title. */
  title: string;
  /** Palette command (`:slots`) and aliases. */
  command: string;
  aliases?: readonly string[];
  component: ComponentType<ScreenProps>;
  /**
   * About every profile, not the desk's current one (Systems): it is not restarted when the profile changes.
   * Other screens restart on the new profile.
   */
  acrossProfiles?: boolean;
}
