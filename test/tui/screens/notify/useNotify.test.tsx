/** useNotify: the form, its review and the session's sent list against canned answers (no sandbox). */
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../../src/core/errors.js';
import { buildFromForm, useNotify } from '../../../../src/tui/screens/notify/useNotify.js';
import { type RenderedHook, renderHook, testProfile } from '../../hook-harness.js';

let h: RenderedHook<ReturnType<typeof useNotify>> | undefined;
afterEach(() => h?.unmount());

describe('buildFromForm', () => {
  it('names the field that is wrong', () => {
    const p = testProfile();
    expect(() => buildFromForm(p, { email: ' ', topic: 't', text: 'x' })).toThrow('email must not be empty');
    expect(() => buildFromForm(p, { email: 'a@b.org', topic: '', text: 'x' })).toThrow('topic must not be empty.');
    expect(() => buildFromForm(p, { email: 'nope', topic: 't', text: 'x' })).toThrow('email must be an email address, not "nope".');
    expect(buildFromForm(p, { email: 'a@b.org', topic: 't', text: 'x' }).contained[0]!.telecom[0]!.value).toBe('a@b.org');
  });
});

describe('useNotify', () => {
  it('reviews before sending; a refusal keeps the form and its cursor; a send lists it and keeps email and topic', async () => {
    let fail = true;
    const c5 = () => {
      if (fail) throw new HttpError(503, { method: 'POST', url: 'http://x/Communication' });
      return { resourceType: 'Communication', id: 'notif-7' };
    };
    h = renderHook(() => useNotify(), { answers: { C5: c5 } });
    h.current.write();
    await h.until(() => expect(h!.current.stack.top.kind).toBe('edit'));
    h.current.review({ email: 'nope', topic: 'Reminder', text: 'Tomorrow' });
    await h.until(() => expect(h!.text()).toBe('Email must be an email address, not "nope".'));
    expect(h.current.form.bind.focusRequest?.field).toBe('email');
    h.current.form.bind.onChange({ email: 'emma@example.org', topic: 'Reminder', text: 'Tomorrow' }, 'email');
    h.current.review(h.current.form.values());
    await h.until(() => expect(h!.current.stack.top.kind).toBe('confirm'));
    h.current.send();
    await h.until(() => expect(h!.text()).toContain('HTTP 503'));
    expect(h.current.stack.top.kind).toBe('edit');
    expect(h.current.form.values().text).toBe('Tomorrow');
    expect(h.current.sent).toHaveLength(0);
    fail = false;
    h.current.review(h.current.form.values());
    await h.until(() => expect(h!.current.stack.top.kind).toBe('confirm'));
    h.current.send();
    await h.until(() => expect(h!.text()).toBe('Sent the notification to emma@example.org (HTTP 201, id notif-7).'));
    expect(h.current.stack.steps).toEqual([{ kind: 'list' }]);
    expect(h.current.sent.map((s) => [s.n, s.email, s.text, s.id])).toEqual([[1, 'emma@example.org', 'Tomorrow', 'notif-7']]);
    expect(h.current.form.values()).toEqual({ email: 'emma@example.org', topic: 'Reminder', text: '' });
    expect(h.current.form.bind.focusRequest?.field).toBe('email');
    expect(h.fake.of('C5')).toHaveLength(2);
    h.current.writeNew();
    await h.until(() => expect(h!.current.form.values()).toEqual({ email: '', topic: '', text: '' }));
  });
});
