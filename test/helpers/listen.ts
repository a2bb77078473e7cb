/**
 * Test helper for `pdesk listen` as a real process: start it on port 0 in a config dir, read the bound URL
 * from stdout's first line, collect the lines it prints, stop it with a signal.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from './cli.js';

export interface ListenProcess {
  url: string;
  child: ChildProcess;
  /** stdout lines after the first. */
  lines: string[];
  stderr(): string;
  /** Wait until at least n lines were printed after the first. */
  waitForLines(n: number, timeoutMs?: number): Promise<string[]>;
  /** Send a signal and wait for the exit code (128 + signal number when killed by it). */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export function startListen(configDir: string, args: string[] = [], env: Record<string, string | undefined> = {}): Promise<ListenProcess> {
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: '1', PDESK_CONFIG_DIR: configDir, ...env }))
      if (v !== undefined) childEnv[k] = v;
    delete childEnv.PDESK_PROFILE;
    const child = spawn(process.execPath, [BIN, 'listen', '--port', '0', ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let url: string | undefined;
    const lines: string[] = [];
    const waiters = new Set<() => void>();
    const exited = new Promise<number>((r) =>
      child.on('exit', (code, signal) => {
        r(code ?? (signal === 'SIGKILL' ? 137 : signal === 'SIGTERM' ? 143 : signal === 'SIGINT' ? 130 : 128));
        if (!url) reject(new Error(`pdesk listen exited (${code ?? signal}) before printing its URL:\n${out}\n${err}`));
      }),
    );
    const timer = setTimeout(() => {
      if (!url) {
        child.kill('SIGKILL');
        reject(new Error(`pdesk listen printed no URL within 10 s:\n${out}\n${err}`));
      }
    }, 10_000);
    child.stderr!.setEncoding('utf8').on('data', (d) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (url === undefined) {
          const m = /https?:\/\/[^\s",)]+/.exec(line);
          if (!m) {
            reject(new Error(`the first line of pdesk listen has no URL: ${line}`));
            continue;
          }
          url = m[0];
          clearTimeout(timer);
          resolve(proc);
        } else {
          lines.push(line);
          for (const w of waiters) w();
        }
      }
    });
    const proc: ListenProcess = {
      get url() {
        return url!;
      },
      child,
      lines,
      stderr: () => err,
      waitForLines(n, timeoutMs = 10_000) {
        return new Promise((res, rej) => {
          const check = () => {
            if (lines.length >= n) {
              waiters.delete(check);
              clearTimeout(t);
              res(lines);
            }
          };
          const t = setTimeout(() => {
            waiters.delete(check);
            rej(new Error(`pdesk listen printed ${lines.length} lines, expected ${n}:\n${lines.join('\n')}\nstderr:\n${err}`));
          }, timeoutMs);
          waiters.add(check);
          check();
        });
      },
      async stop(signal = 'SIGINT') {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exited;
      },
    };
  });
}
