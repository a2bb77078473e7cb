/**
 * Notify screen: write a notification (email, topic, text), see exactly what will be sent, send it (C5,
 * practice system → portal) and keep this session's sent list (Enter shows what was sent and answered).
 * State: hooks/useNotify.ts; the steps are drawn here, one small component each.
 */
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { notificationEmail } from '../../core/api/notifications.js';
import type { Notification } from '../../core/schemas/notification.js';
import { Confirm } from '../components/Confirm.js';
import { Form } from '../components/Form.js';
import { ListView } from '../components/ListView.js';
import type { SortColumn } from '../components/sort.js';
import { ScrollText } from '../components/ScrollText.js';
import { useDesk } from '../desk.js';
import { clean, columns, fit, growWidths, jsonLines, longestOf } from '../format.js';
import { NOTIFY_FIELDS, type Notify, type NotifyStep, type SentNotification, useNotify } from '../hooks/useNotify.js';
import { useKeys } from '../keys/useKeys.js';
import { StepStackView, useStepBack } from '../steps.js';
import type { ScreenProps } from './types.js';

export type { SentNotification } from '../hooks/useNotify.js';

interface StepProps {
  s: Notify;
  width: number;
  height: number;
  active: boolean;
}

const FORM_LINES = 2 + NOTIFY_FIELDS.length + 1;
/** TIME, HTTP, EMAIL, TOPIC, TEXT: the text gets what is left; email and topic grow on a wide terminal. */
const widths = (width: number, sent: readonly SentNotification[]) =>
  growWidths(
    width < 100 ? [8, 4, 24, 16, 0] : [8, 4, 30, 24, 0],
    [0, 0, longestOf(sent.map((s) => clean(s.email))), longestOf(sent.map((s) => clean(s.topic))), 0],
    width,
  );
const time = (d: Date) => d.toTimeString().slice(0, 8);
const row = (s: SentNotification, width: number, w: readonly number[]) =>
  columns([time(s.at), String(s.status), clean(s.email), clean(s.topic), clean(s.text)], w, width);

const SENT_COLUMNS: readonly SortColumn<SentNotification>[] = [
  { key: 't', name: 'time', value: (x) => x.n, desc: true },
  { key: 'h', name: 'HTTP status', value: (x) => x.status },
  { key: 'e', name: 'email', value: (x) => x.email },
  { key: 'o', name: 'topic', value: (x) => x.topic },
];

/** The form (active while it is the top step) above the session's sent list (active on its own). */
function ListStep({ s, width, height, active, editing }: StepProps & { editing: boolean }) {
  const desk = useDesk();
  const { profile } = desk;
  const sentWidths = useMemo(() => widths(width - 2, s.sent), [width, s.sent]);
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
        header={`  ${columns(['TIME', 'HTTP', 'EMAIL', 'TOPIC', 'TEXT'], sentWidths, width - 2)}`}
        render={(x, w) => row(x, w, sentWidths)}
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

function ConfirmStep({ s, body, width, height, active }: StepProps & { body: Notification }) {
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

function DetailStep({ sent, width, height, active }: StepProps & { sent: SentNotification }) {
  return (
    <ScrollText
      title={`Notification ${sent.n} sent at ${time(sent.at)} (HTTP ${sent.status}${sent.id ? `, id ${clean(sent.id)}` : ''})`}
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

/** The form is drawn above the sent list. */
const inline = (step: NotifyStep) => step.kind === 'edit';

export function NotifyScreen({ width, height }: ScreenProps) {
  const s = useNotify();
  useStepBack(s.stack);
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <StepStackView stack={s.stack} height={height} inline={inline}>
        {(step, { active, index }) => {
          const p = { s, width, height, active };
          switch (step.kind) {
            case 'list':
              return <ListStep {...p} editing={s.stack.top.kind === 'edit'} />;
            case 'edit':
              return null; // drawn by the list below it
            case 'confirm':
              return <ConfirmStep {...p} body={step.body} />;
            case 'detail':
              return <DetailStep {...p} sent={step.sent} key={index} />;
          }
        }}
      </StepStackView>
    </Box>
  );
}
