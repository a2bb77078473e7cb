/** useForm: values, errors in the form's words, and where the cursor goes (src/tui/hooks/useForm.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { FieldError } from '../../../src/core/errors.js';
import { useForm } from '../../../src/tui/hooks/useForm.js';
import { type RenderedHook, renderHook } from '../hook-harness.js';

const FIELDS = [
  { name: 'email', label: 'Email' },
  { name: 'topic', label: 'Topic' },
  { name: 'text', label: 'Text' },
];

describe('useForm', () => {
  let h: RenderedHook<ReturnType<typeof useForm>> | undefined;
  afterEach(() => h?.unmount());

  it('refocus goes to the field edited last or named by the last error, whichever came later', async () => {
    h = renderHook(() => useForm(FIELDS, { email: '', topic: '', text: '' }));
    h.current.refocus(); // nothing edited, no error: the cursor stays
    expect(h.current.bind.focusRequest).toBeUndefined();
    h.current.bind.onChange({ email: 'a@b', topic: '', text: '' }, 'email');
    h.current.bind.onChange({ email: 'a@b', topic: 'T', text: '' }, 'topic');
    expect(h.current.values().topic).toBe('T');
    h.current.refocus();
    await h.until(() => expect(h!.current.bind.focusRequest?.field).toBe('topic'));
    h.current.fail(new FieldError('email', 'must be an email address, not "a@b"'));
    await h.until(() => expect(h!.text()).toBe('Email must be an email address, not "a@b".'));
    expect(h.current.bind.focusRequest?.field).toBe('email');
    const seq = h.current.bind.focusRequest!.seq;
    h.current.refocus(); // again to the field of the error, as a new request
    await h.until(() => expect(h!.current.bind.focusRequest?.seq).toBe(seq + 1));
    expect(h.current.bind.focusRequest?.field).toBe('email');
    h.current.bind.onChange({ email: 'a@b', topic: 'T', text: 'x' }, 'text');
    h.current.refocus();
    await h.until(() => expect(h!.current.bind.focusRequest?.field).toBe('text'));
  });

  it('an error naming no field of the form is shown and moves nothing; restart goes to the first field', async () => {
    h = renderHook(() => useForm(FIELDS, { email: '', topic: '', text: '' }));
    h.current.fail(new FieldError('recipient', 'must be a reference'));
    await h.until(() => expect(h!.text()).toBe('Recipient must be a reference.'));
    expect(h.current.bind.focusRequest).toBeUndefined();
    h.current.bind.onChange({ email: '', topic: '', text: 'x' }, 'text');
    h.current.restart({ email: 'e@x.org', topic: '', text: '' });
    await h.until(() => expect(h!.current.bind.focusRequest?.field).toBe('email'));
    expect(h.current.values()).toEqual({ email: 'e@x.org', topic: '', text: '' });
    h.current.refocus(); // restarted: nothing to fix
    expect(h.current.bind.focusRequest?.field).toBe('email');
  });
});
