/**
 * What a command reads and writes besides the network and files, in the spirit of gh's `pkg/iostreams`: the
 * three standard streams, whether each is a terminal, the terminal's width, the environment, signals and the
 * way out. `systemIO()` is the process's; `testIO()` keeps everything in memory, so tables, colours, prompts,
 * JSON output and exit codes are tested in-process (test/helpers/run.ts) instead of by starting a process per
 * case. Nothing on a command's path touches `process.stdout`, `process.stdin`, `process.env` or `process.exit`
 * but through an IO.
 */
import { readFileSync } from 'node:fs';
import { PassThrough, Readable, Writable } from 'node:stream';

export type Signal = 'SIGINT' | 'SIGTERM';

export interface IO {
  /** Standard input as a stream (prompts read it line by line); created on first use. */
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** The terminal's width when stdout is a terminal that says so. */
  columns(): number | undefined;
  /** The environment: PDESK_CONFIG_DIR, PDESK_PROFILE, NO_COLOR, COLUMNS, and variables a profile names. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** All of standard input as text (`--body -`, `--slot-json -`, `profile import -`). */
  readStdin(): string;
  /** Call `handler` on Ctrl-C (SIGINT) or SIGTERM from now on. */
  onSignal(signal: Signal, handler: (signal: Signal) => void): void;
  /** End now with this exit code (a second Ctrl-C): nothing after it runs. */
  exitNow(code: number): void;
}

/** The process's streams and environment. */
export function systemIO(): IO {
  return {
    // process.stdin is created on first access: a command that never reads it never opens it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    // Asked only by prompts: node:tty is loaded then, not by every command (a terminal's stdout loads it anyway).
    get stdinIsTTY() {
      return process.getBuiltinModule('node:tty').isatty(0);
    },
    stdoutIsTTY: !!process.stdout.isTTY,
    stderrIsTTY: !!process.stderr.isTTY,
    columns: () => process.stdout.columns || undefined,
    env: process.env,
    readStdin: () => readFileSync(0, 'utf8'),
    onSignal: (signal, handler) => {
      process.on(signal, handler);
    },
    exitNow: (code) => process.exit(code),
  };
}

export interface TestIOOptions {
  /** Standard input's text. */
  stdin?: string;
  /** Make every stream a terminal (or say per stream). */
  tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** The terminal's width (stdout a terminal); COLUMNS in `env` is read when this is not given. */
  columns?: number;
  env?: Record<string, string | undefined>;
}

export interface TestIO {
  io: IO;
  stdout(): string;
  stderr(): string;
  /** Deliver a signal to the handlers the command installed. */
  signal(signal: Signal): void;
  /** Resolves with the code given to `exitNow`. */
  exited: Promise<number>;
}

class Buffered extends Writable {
  text = '';
  constructor(
    readonly isTTY: boolean,
    readonly columns: number | undefined,
  ) {
    super({ decodeStrings: false });
  }
  override _write(chunk: unknown, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : String(chunk);
    done();
  }
}

/** An IO in memory, like gh's `iostreams.Test()`: read what was written with `stdout()` and `stderr()`. */
export function testIO(o: TestIOOptions = {}): TestIO {
  const tty = typeof o.tty === 'object' ? o.tty : { stdin: !!o.tty, stdout: !!o.tty, stderr: !!o.tty };
  const out = new Buffered(!!tty.stdout, tty.stdout ? o.columns : undefined);
  const err = new Buffered(!!tty.stderr, undefined);
  const input = o.stdin ?? '';
  let stdin: NodeJS.ReadableStream | undefined;
  const handlers: Array<[Signal, (s: Signal) => void]> = [];
  let exit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((r) => (exit = r));
  const io: IO = {
    get stdin() {
      if (!stdin) {
        // A terminal's input stays open until the test ends it; a pipe ends after its text.
        const s = tty.stdin ? new PassThrough() : Readable.from([input]);
        if (tty.stdin) (s as PassThrough).end(input);
        stdin = Object.assign(s, { isTTY: !!tty.stdin });
      }
      return stdin;
    },
    stdout: out,
    stderr: err,
    stdinIsTTY: !!tty.stdin,
    stdoutIsTTY: !!tty.stdout,
    stderrIsTTY: !!tty.stderr,
    columns: () => (tty.stdout ? o.columns : undefined),
    env: { ...o.env },
    readStdin: () => input,
    onSignal: (signal, handler) => {
      handlers.push([signal, handler]);
    },
    exitNow: (code) => exit(code),
  };
  return {
    io,
    stdout: () => out.text,
    stderr: () => err.text,
    signal: (signal) => {
      for (const [s, h] of handlers) if (s === signal) h(signal);
    },
    exited,
  };
}
