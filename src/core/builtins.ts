/**
 * Node's own modules that only some commands need, loaded where first used rather than when pdesk starts: each
 * one loaded at start-up is paid by every one-shot command, `--help` included (DEVELOPERS.md, "Stack notes";
 * test/process/builds.test.ts lists what a read command loads). Core code asks for them here, never with a
 * static import of its own: `nodeHttp().STATUS_CODES`, `nodeCrypto().randomUUID()`.
 */
export const nodeHttp = () => process.getBuiltinModule('node:http');
export const nodeHttps = () => process.getBuiltinModule('node:https');
export const nodeTls = () => process.getBuiltinModule('node:tls');
export const nodeNet = () => process.getBuiltinModule('node:net');
export const nodeZlib = () => process.getBuiltinModule('node:zlib');
export const nodeCrypto = () => process.getBuiltinModule('node:crypto');
export const nodeChildProcess = () => process.getBuiltinModule('node:child_process');
