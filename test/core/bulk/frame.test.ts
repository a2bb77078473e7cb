/**
 * A bulk send writes each row's body from the first row's validated shape, cut around the three strings that
 * differ (frameOf, src/core/bulk/notifications.ts): for any strings, the result must be exactly what
 * JSON.stringify writes for the same notification with them, and parse back to it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNotification } from '../../../src/core/api/notifications.js';
import { frameOf } from '../../../src/core/bulk/notifications.js';
import type { Notification } from '../../../src/core/schemas/notification.js';
import { sandboxProfile } from '../../../src/sandbox/profile.js';
import { Profile } from '../../../src/core/profile/schema.js';

const shape = buildNotification(Profile.parse(sandboxProfile('http://h')), {
  email: 'first@example.org',
  topic: 'First topic',
  text: 'First text',
});

/** The notification of a row as an object, stringified the ordinary way. */
function expected(n: Notification, email: string, topic: string, text: string): string {
  const patient = n.contained[0]!;
  return JSON.stringify({
    ...n,
    contained: [{ ...patient, telecom: [{ ...patient.telecom[0]!, value: email }] }],
    topic: { text: topic },
    payload: [{ contentString: text }],
  });
}

describe('frameOf', () => {
  const f = frameOf(shape);

  it('has four pieces, and the first row put back in gives the first row’s own JSON', () => {
    expect(f).toHaveLength(4);
    const first =
      f[0] + JSON.stringify('first@example.org') + f[1] + JSON.stringify('First topic') + f[2] + JSON.stringify('First text') + f[3];
    expect(first).toBe(JSON.stringify(shape));
  });

  it('for any three strings (quotes, backslashes, control characters, lone surrogates, the stand-ins’ own text)', () => {
    const str = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('\u0000pdesk:email\u0000', '"', '\\', '\u2028'));
    fc.assert(
      fc.property(str, str, str, (email, topic, text) => {
        const json = f[0] + JSON.stringify(email) + f[1] + JSON.stringify(topic) + f[2] + JSON.stringify(text) + f[3];
        expect(json).toBe(expected(shape, email, topic, text));
        const back = JSON.parse(json) as Notification;
        expect([back.contained[0]!.telecom[0]!.value, back.topic.text, back.payload[0]!.contentString]).toEqual([email, topic, text]);
      }),
    );
  });
});
