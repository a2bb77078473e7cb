/**
 * The steps of the Notify screen, one small component each: they draw what the hook (useNotify.ts) holds and
 * call its actions. `active` is true for the top step only.
 */
import { Text } from 'ink';
import { useMemo } from 'react';
import { notificationEmail } from '../../../core/api/notifications.js';
import type { Notification } from '../../../core/schemas/notification.js';
import { Confirm } from '../../components/Confirm.js';
import { Form } from '../../components/Form.js';
import { ListView } from '../../components/ListView.js';
import { ScrollText } from '../../components/ScrollText.js';
import { useDesk } from '../../desk.js';
import { clean, columns, fit, jsonLines } from '../../format.js';
import { useKeys } from '../../keys/useKeys.js';
import type { StepViewProps } from '../../steps.js';
import { SENT_COLUMNS, SENT_HEADER, sentRow, sentTime, sentWidths } from './format.js';
import { NOTIFY_FIELDS, type Notify, type SentNotification } from './useNotify.js';

export interface StepProps extends StepViewProps {
  s: Notify;
}

const FORM_LINES = 2 + NOTIFY_FIELDS.length + 1;

/** The form (active while it is the top step) above the session's sent list (active on its own). */
export function ListStep({ s, width, height, active, editing }: StepProps & { editing: boolean }) {
  const desk = useDesk();
  const { profile } = desk;
  const widths = useMemo(() => sentWidths(width - 2, s.sent), [width, s.sent]);
  useKeys(
    [
      {
        keys: ['n', 'e'],
        label: 'write',
        help: 'write a notification (the form keeps what was typed before)',
        run: desk.guard('C5', 'a notification', s.write),
      },
      { keys: ['N'], help: 'write a new notification from an empty form', run: desk.guard('C5', 'a notification', s.writeNew) },
    ],
    { active },
  );
  return (
    <>
      <Form
        title={editing ? `New notification (C5) to ${clean(profile.name)}'s portal` : `New notification (C5) — n to write`}
        fields={NOTIFY_FIELDS}
        {...s.form.bind}
        onSubmit={s.review}
        onCancel={() => s.stack.pop()}
        submitLabel="review"
        active={editing}
        width={width}
        height={FORM_LINES}
      />
      <Text dimColor wrap="truncate">
        {fit('─'.repeat(width), width)}
      </Text>
      <ListView<SentNotification>
        items={s.sent}
        width={width}
        height={Math.max(3, height - FORM_LINES - 1)}
        title={`Sent this session (${s.sent.length})`}
        header={`  ${columns(SENT_HEADER, widths, width - 2)}`}
        render={(x, w) => sentRow(x, w, widths)}
        itemKey={(x) => String(x.n)}
        onOpen={s.show}
        openLabel="show"
        sort={{ columns: SENT_COLUMNS }}
        // A local list: it changes when a notification is sent, so its time is the last send's.
        refreshedAt={s.sent.reduce<Date | undefined>((a, x) => (!a || x.at > a ? x.at : a), undefined)}
        raw={(x) => ({
          title: `notification ${x.n} as sent (C5) and the portal's answer`,
          value: { sent: x.body, status: x.status, answer: x.answer },
          name: `notification-${x.n}`,
        })}
        active={active}
        empty="Nothing sent yet in this session. n: write a notification."
      />
    </>
  );
}

export function ConfirmStep({ s, body, width, height, active }: StepProps & { body: Notification }) {
  const { profile } = useDesk();
  return (
    <Confirm
      question={`Send? POST ${clean(profile.portal.baseUrl.replace(/\/+$/, ''))}/Communication (C5):`}
      lines={[
        clean(`To ${notificationEmail(body)} · topic ${body.topic.text}`),
        ...body.payload.map((p) => clean(`Text: ${p.contentString}`)),
        '',
        ...jsonLines(body),
      ]}
      yesLabel="send"
      onYes={s.send}
      onNo={s.unconfirm}
      width={width}
      height={height}
      active={active}
    />
  );
}

export function DetailStep({ sent, width, height, active }: StepProps & { sent: SentNotification }) {
  return (
    <ScrollText
      title={`Notification ${sent.n} sent at ${sentTime(sent.at)} (HTTP ${sent.status}${sent.id ? `, id ${clean(sent.id)}` : ''})`}
      lines={[
        clean(`To ${sent.email} · topic ${sent.topic}`),
        clean(`Text: ${sent.text}`),
        '',
        'As sent:',
        ...jsonLines(sent.body),
        ...(sent.answer !== undefined ? ['', 'The portal answered:', ...jsonLines(sent.answer)] : []),
      ]}
      width={width}
      height={height}
      active={active}
    />
  );
}
