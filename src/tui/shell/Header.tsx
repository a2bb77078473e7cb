import { Text } from 'ink';
import { isProduction } from '../../core/profile/schema.js';
import { useDesk, useDeskStatus } from '../desk.js';
import { fit } from '../format.js';

/** The first line: profile, environment (production in red), read-only, API version, connection, in-process servers. */
export function Header({ width }: { width: number }) {
  const { profile, receiver, sandbox, readOnly } = useDesk();
  const { connection, lastMs } = useDeskStatus();
  const env = profile.environment ?? 'no environment';
  const prod = isProduction(profile);
  const conn =
    connection === 'online'
      ? `● online${lastMs !== undefined ? ` ${lastMs} ms` : ''}`
      : connection === 'offline'
        ? '● offline'
        : '○ not checked';
  const port = (u: string) => u.replace(/^https?:\/\/(127\.0\.0\.1|localhost)/, '');
  const extra = [sandbox ? `sandbox ${port(sandbox.url)}` : '', receiver ? `push ${port(receiver.url)}` : ''].filter(Boolean).join(' ');
  // Read-only (the profile's readOnly, or --read-only) is said beside the environment: write keys do nothing.
  const ro = readOnly ? ' read-only ' : '';
  const fixed = ` pdesk  ${profile.name}  ${prod ? ` ${env.toUpperCase()} ` : `[${env}]`}${ro ? ` ${ro}` : ''}  appt API ${profile.appointmentApi}  `;
  const rest = Math.max(0, width - fixed.length - conn.length);
  return (
    <Text wrap="truncate">
      <Text bold> pdesk </Text>
      <Text bold color="cyan">
        {' '}
        {profile.name}{' '}
      </Text>
      {prod ? (
        <Text bold color="white" backgroundColor="red">
          {` ${env.toUpperCase()} `}
        </Text>
      ) : (
        <Text color="green">[{env}]</Text>
      )}
      {ro ? (
        <>
          <Text> </Text>
          <Text bold color="black" backgroundColor="yellow">
            {ro}
          </Text>
        </>
      ) : null}
      <Text>{`  appt API ${profile.appointmentApi}  `}</Text>
      <Text color={connection === 'online' ? 'green' : connection === 'offline' ? 'red' : 'gray'}>{conn}</Text>
      <Text dimColor>{extra ? fit(`  ${extra}`, rest) : ''}</Text>
    </Text>
  );
}
