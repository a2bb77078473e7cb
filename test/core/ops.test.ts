/** The operation table (src/core/ops.ts): which party serves each operation. */
import { describe, expect, it } from 'vitest';
import { OP_IDS, OPS } from '../../src/core/ops.js';

describe('OPS table', () => {
  it('puts C3–C5 on the portal and everything else on the practice system', () => {
    for (const id of OP_IDS) expect(OPS[id].party).toBe(['C3', 'C4', 'C5'].includes(id) ? 'portal' : 'practice');
  });
});
