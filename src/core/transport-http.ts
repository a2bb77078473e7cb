/**
 * The transport for one-shot commands: node:http / node:https with a keep-alive agent (a list that follows
 * `next` links reuses its connection). A one-shot command sends a handful of requests; loading and compiling
 * undici and its WebAssembly parser would cost it more than three times node's own start-up, node:http next
 * to nothing (docs/performance.md). Same contract as the undici pool (transport.ts): connect and request
 * deadlines, size bound, retries, error codes and messages, TLS files, the caller's abort signal.
 */
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import { BodyDecoder } from './decode.js';
import {
  type Answer,
  CONNECT_TIMEOUT_CODE,
  type Deadline,
  type RawRequest,
  RetryingTransport,
  answerText,
  codeError,
  tlsConnectOptions,
  tooLargeError,
} from './transport.js';
import { nodeHttp, nodeHttps } from './builtins.js';

/** `Headers` as undici gives them, each name once and lower-case, repeated values joined with ", ". */
function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i]!.toLowerCase();
    out[k] = k in out ? `${out[k]}, ${raw[i + 1]}` : raw[i + 1]!;
  }
  return out;
}

export class HttpTransport extends RetryingTransport {
  private httpAgent?: Agent;
  private httpsAgent?: HttpsAgent;

  private agent(secure: boolean): Agent {
    const o = { keepAlive: true, maxSockets: this.opts.connections };
    // node:http and node:https (with node:tls) load on the first request that needs them: `pdesk --help` and
    // usage errors load this module but send nothing.
    if (!secure) {
      this.httpAgent ??= new (nodeHttp().Agent)(o);
      return this.httpAgent;
    }
    this.httpsAgent ??= new (nodeHttps().Agent)(o);
    return this.httpsAgent;
  }

  protected send(url: URL, req: RawRequest, deadline: Deadline, path: string): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const max = this.maxBytes(req);
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      let request: ClientRequest | undefined;
      let decoder: BodyDecoder | undefined;
      // Ends the request at once, also one still waiting for a connection of the agent.
      const onAbort = () => finish(codeError('The request was aborted.', 'ABORT_ERR'));
      const finish = (e: Error | undefined, answer?: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        deadline.unwatch(req.signal, onAbort);
        if (e) {
          decoder?.destroy();
          request?.destroy();
          reject(e);
        } else resolve(answer!);
      };
      if (req.signal?.aborted) return finish(codeError('The request was aborted.', 'ABORT_ERR'));
      deadline.watch(req.signal, onAbort);

      const headers = { ...req.headers };
      if (req.body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length'))
        headers['content-length'] = String(Buffer.byteLength(req.body));
      try {
        const options = {
          protocol: url.protocol,
          hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
          port: url.port || undefined,
          path,
          method: req.method,
          headers,
          agent: this.agent(secure),
          ...(secure ? tlsConnectOptions(req.tls) : {}),
        };
        request = (secure ? nodeHttps() : nodeHttp()).request(options);
      } catch (e) {
        // An invalid header value or method: node refuses it before sending anything.
        return finish(e as Error);
      }

      request.on('socket', (socket: Socket) => {
        // The connect deadline covers the lookup, the connection and the TLS handshake of a new socket; a kept
        // alive one is ready.
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => finish(codeError('Connect Timeout Error', CONNECT_TIMEOUT_CODE)), this.opts.connectMs);
        socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      request.on('error', (e) => finish(e));
      request.on('response', (res) => {
        const tooLarge = () => finish(tooLargeError());
        if (Number(res.headers['content-length']) > max) return tooLarge();
        const answered = (chunks: Buffer[], length: number) =>
          finish(undefined, { status: res.statusCode ?? 0, headers: headersOf(res), text: answerText(chunks, length) });
        // A compressed body is decoded as it arrives, the bound applied to what comes out (src/core/decode.ts).
        decoder = BodyDecoder.for(res.headers['content-encoding'], max, answered, (e) => finish(e));
        const chunks: Buffer[] = [];
        let length = 0;
        res.on('data', (chunk: Buffer) => {
          length += chunk.length;
          if (length > max) return tooLarge();
          if (decoder) decoder.write(chunk);
          else chunks.push(chunk);
        });
        res.on('end', () => (decoder ? decoder.end() : answered(chunks, length)));
        res.on('error', (e) => finish(e));
        // The connection closed before the whole body arrived.
        res.on('close', () => {
          if (!res.complete) finish(codeError('other side closed', 'ECONNRESET'));
        });
      });
      request.end(req.body);
    });
  }

  async close(): Promise<void> {
    this.httpAgent?.destroy();
    this.httpsAgent?.destroy();
    this.httpAgent = undefined;
    this.httpsAgent = undefined;
  }
}
