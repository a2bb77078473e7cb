/**
 * The global `--query <JMESPath>` (cli.md): an expression applied to a command's JSON output, as in the AWS and
 * Azure CLIs, with @jmespath-community/jmespath (the maintained, spec-compliant TypeScript implementation of
 * JMESPath and of the community edition's additions: `$`, `let`, arithmetic, more functions). This module and
 * the library are imported only when `--query` is given (Context.compileQuery), so no other run loads them.
 *
 * The expression is compiled before anything is sent. The library's errors name no position, so the position
 * is found here from its lexer's tokens: a bad expression is a UsageError (exit 2) naming the position, with
 * the expression and a caret under it. An unknown function is found at compile time too.
 */
import { compile, isRegistered, TreeInterpreter, tokenize } from '@jmespath-community/jmespath';
import { UsageError } from '../core/errors.js';

export interface Query {
  readonly expression: string;
  /** The expression applied to a JSON value; an error the library raises while applying it is a UsageError. */
  apply(value: unknown): unknown;
}

/** Compile `expression`; a syntax error or an unknown function is a UsageError naming its position. */
export function compileQuery(expression: string): Query {
  if (expression.trim() === '')
    throw new UsageError('--query: the expression is empty.', ['Give a JMESPath expression, e.g. --query "[].id".']);
  let ast: ReturnType<typeof compile>;
  try {
    ast = compile(expression);
  } catch (e) {
    throw syntaxError(expression, e as Error);
  }
  const unknown = functionNames(ast).find((name) => !isRegistered(name));
  if (unknown !== undefined) {
    const at = functionPosition(expression, unknown);
    throw positioned(expression, `unknown function ${unknown}()`, at, []);
  }
  return {
    expression,
    apply(value) {
      try {
        // The expression sees what would be printed: plain JSON (dates as strings, no undefined fields).
        const result = TreeInterpreter.search(ast, JSON.parse(JSON.stringify(value) ?? 'null'));
        // A field such as `constructor` reads a property of Object.prototype: a function prints as null.
        const text = JSON.stringify(result);
        return text === undefined ? null : JSON.parse(text);
      } catch (e) {
        throw new UsageError(`--query: the expression cannot be applied to the output: ${sentence((e as Error).message)}`, [
          `expression: ${expression}`,
          'The command itself completed; its output was not printed.',
        ]);
      }
    },
  };
}

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/** Every function name called in the expression's syntax tree. */
function functionNames(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) functionNames(n, out);
  else if (node && typeof node === 'object') {
    const n = node as { type?: unknown; name?: unknown };
    if (n.type === 'Function' && typeof n.name === 'string') out.push(n.name);
    for (const v of Object.values(node)) if (v && typeof v === 'object') functionNames(v, out);
  }
  return out;
}

/** The index of the first call `name(` in the expression. */
function functionPosition(expression: string, name: string): number {
  const tokens = tokenize(expression);
  const i = tokens.findIndex((t, k) => t.type === 'UnquotedIdentifier' && t.value === name && tokens[k + 1]?.type === 'Lparen');
  return i < 0 ? 0 : tokens[i]!.start;
}

/** Whether the lexer reads `text`. */
function lexes(text: string): boolean {
  try {
    tokenize(text);
    return true;
  } catch {
    return false;
  }
}

/** The message `compile` fails with on `text`, or undefined when it compiles. */
function compileError(text: string): string | undefined {
  try {
    compile(text);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The library names the end of the expression as the token EOF. */
const AT_END = /\(EOF\)|got: EOF\b|type: EOF\b/;

/** A UsageError for an expression the library does not compile, naming where it fails. */
function syntaxError(expression: string, e: Error): UsageError {
  const detail = [`(${e.message})`];
  if (!lexes(expression)) {
    // The lexer stops at the start of a token it cannot read, and every longer prefix stops there too: the
    // longest prefix it reads ends where it stopped.
    let at = expression.length - 1;
    while (at > 0 && !lexes(expression.slice(0, at))) at--;
    const c = expression[at];
    const what =
      c === '`'
        ? 'a literal (`…`) that is not valid JSON or not closed'
        : c === '"'
          ? 'a quoted name ("…") that is not closed'
          : `unexpected character ${JSON.stringify(c)}`;
    return positioned(expression, what, at, detail);
  }
  if (AT_END.test(e.message)) return positioned(expression, 'the expression is incomplete', expression.length, detail);
  // The parser reads tokens left to right: cut before token j, the expression fails the same way only once the
  // token it fails at is kept. The first such cut names that token.
  const tokens = tokenize(expression);
  let at = tokens.length ? tokens[tokens.length - 1]!.start : 0;
  for (let j = 1; j < tokens.length; j++) {
    if (compileError(expression.slice(0, tokens[j]!.start)) === e.message) {
      at = tokens[j - 1]!.start;
      break;
    }
  }
  const next = tokens.find((t) => t.start > at)?.start ?? expression.length;
  return positioned(expression, `unexpected ${JSON.stringify(expression.slice(at, next).trim())}`, at, detail);
}

/** `--query: <what> at position <n>: "<expression>"`, then the expression with a caret under position n. */
function positioned(expression: string, what: string, index: number, detail: string[]): UsageError {
  // Tabs and newlines would break the caret's alignment; each is one character, so positions stay as they are.
  const shown = expression.replace(/[\t\n\r]/g, ' ');
  return new UsageError(`--query: ${what} at position ${index + 1}: ${JSON.stringify(expression)}`, [
    shown,
    `${' '.repeat(index)}^`,
    ...detail,
  ]);
}
