/**
 * A chat Communication written out by hand (not by the core builder, so that receivers and the store are tested
 * against the interface's shape itself), in the sandbox's namespaces.
 */
import type { ChatCommunication } from '../../src/core/schemas/chat.js';
import { SANDBOX_NAMESPACES as NS } from '../../src/sandbox/profile.js';

export function chatMessage(id: string, thread: string, text: string, from: string, to: string): ChatCommunication {
  return {
    resourceType: 'Communication',
    id,
    identifier: [{ system: `${NS.portal}.communication-id`, value: id }],
    status: 'completed',
    payload: [{ contentString: text }],
    encounter: { identifier: [{ system: `${NS.practice}.encounter-id`, value: thread }] },
    recipient: [{ reference: to }],
    sender: [{ reference: from }],
    subject: [{ reference: 'Patient/pat-1' }],
    category: [{ coding: [{ system: `${NS.portal}.communication-type`, code: 'chat' }] }],
  };
}
