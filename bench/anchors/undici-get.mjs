// Anchor: the same one-shot GET with undici's request(), the body printed: what loading undici (its index and
// its WebAssembly parser) costs a one-shot command. Usage: node bench/anchors/undici-get.mjs <url>
import { request } from 'undici';

const res = await request(process.argv[2], { headers: { accept: 'application/fhir+json' } });
const text = await res.body.text();
JSON.parse(text);
process.stdout.write(`${text}\n`);
