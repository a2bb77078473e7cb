/** The Systems model (src/core/systems/monitor.ts): every profile probed concurrently, reported piece by piece. */
import { describe, expect, it } from 'vitest';
import { type SystemStatus, SystemsMonitor } from '../../../src/core/systems/monitor.js';
import { Profile } from '../../../src/core/profile/schema.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { tempDir } from '../../helpers/config.js';
import { closeAfterEach, stubServer } from '../../helpers/http.js';
import { writeJournal, writeStore } from '../../helpers/local-files.js';

const profileAt = (url: string, name: string, extra: object = {}) => Profile.parse({ ...sandboxProfile(url, { name }), ...extra });

describe('SystemsMonitor', () => {
  it('probes every profile at once, counts its local files, keeps an invalid one listed with its problem', async () => {
    const sb = closeAfterEach(await startSandbox({ port: 0, log: () => undefined }));
    const dir = tempDir();
    await writeStore(dir, 'beta', { open: 2 });
    writeJournal(dir, 'beta', ['sending', 'ok']);
    const changes: SystemStatus[][] = [];
    const m = new SystemsMonitor({ dir, onChange: (s) => changes.push(s) });
    try {
      m.setEntries([
        { name: 'alpha', profile: profileAt(sb.url, 'alpha') },
        { name: 'beta', profile: profileAt(sb.url, 'beta', { environment: 'production' }) },
        { name: 'broken', invalid: 'Unknown key "praktice" in profile "broken".' },
      ]);
      await m.refresh();
      const [alpha, beta, broken] = m.statuses();
      expect(alpha).toMatchObject({
        name: 'alpha',
        probing: false,
        practice: { state: 'ok' },
        portal: { state: 'reachable', status: 404 },
      });
      expect(alpha!.counts).toMatchObject({ unread: 0, open: 0, uncertain: 0 });
      expect(alpha!.lastError).toBeUndefined();
      expect(beta).toMatchObject({ counts: { unread: 2, open: 2, threads: 3, uncertain: 1 } });
      expect(beta!.refreshedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(broken).toMatchObject({ name: 'broken', probing: false, lastError: { text: 'Unknown key "praktice" in profile "broken".' } });
      expect(broken!.practice).toBeUndefined();
      // Piece by piece: some change showed alpha's practice answered before its round was over.
      expect(changes.some((c) => c[0]!.practice && c[0]!.probing)).toBe(true);
      // Two profiles of one sandbox: four probes, GET only.
      expect(sb.received.map((r) => r.method).sort()).toEqual(['GET', 'GET', 'GET', 'GET']);
    } finally {
      await m.close();
    }
  });

  it('a profile still probing is left to finish; the last error stays after a later success', async () => {
    let fail = true;
    const stub = await stubServer((_req, res) => {
      if (fail) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('busy');
      } else {
        res.writeHead(200, { 'content-type': 'application/fhir+json' });
        res.end('{"resourceType":"Bundle","type":"searchset","entry":[]}');
      }
    });
    const m = new SystemsMonitor({ onChange: () => undefined });
    try {
      m.setEntries([{ name: 'one', profile: profileAt(stub.url, 'one') }]);
      const a = m.refresh();
      const b = m.refresh(); // while the first round runs: nothing more is sent
      await Promise.all([a, b]);
      expect(stub.received).toHaveLength(2);
      const first = m.statuses()[0]!;
      expect(first.practice).toMatchObject({ state: 'error', status: 503 });
      expect(first.lastError?.text).toMatch(/^practice: HTTP 503/);
      fail = false;
      await m.refresh();
      const second = m.statuses()[0]!;
      expect(second.practice).toMatchObject({ state: 'ok' });
      expect(second.lastError?.text).toMatch(/^practice: HTTP 503/);
      expect(second.counts).toBeUndefined(); // no config folder: no counts
    } finally {
      await m.close();
    }
  });

  it('close abandons the probes under way and reports nothing more', async () => {
    const stub = await stubServer(() => undefined); // never answers
    const changes: number[] = [];
    const m = new SystemsMonitor({ onChange: () => changes.push(Date.now()) });
    m.setEntries([{ name: 'slow', profile: profileAt(stub.url, 'slow') }]);
    const round = m.refresh();
    await new Promise((r) => setTimeout(r, 100));
    const before = changes.length;
    const t0 = Date.now();
    await m.close();
    await round;
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(changes.length).toBe(before);
  });
});
