// Anchor: the floor for a Node command that does one request: one GET with node:http, the body printed.
// Usage: node bench/anchors/http-get.mjs <url>
import { request } from 'node:http';

request(process.argv[2], { headers: { accept: 'application/fhir+json' } }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    JSON.parse(text);
    process.stdout.write(`${text}\n`);
  });
}).end();
