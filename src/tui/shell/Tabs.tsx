import { Text } from 'ink';
import { isProduction } from '../../core/profile/schema.js';
import { useDesk } from '../desk.js';
import { SCREENS, type ScreenId } from '../screens/index.js';

/** The second line: a tab per screen with its digit, the one shown bracketed (red on production). */
export function Tabs({ current, width }: { current: ScreenId; width: number }) {
  const { profile } = useDesk();
  const prod = isProduction(profile);
  let used = 0;
  return (
    <Text wrap="truncate">
      {SCREENS.map((s) => {
        const on = s.id === current;
        // The current tab is bracketed too, so it shows without colour (NO_COLOR, captures).
        const label = on ? `[${s.key} ${s.title}]` : ` ${s.key} ${s.title} `;
        used += label.length + 1;
        if (used > width) return null;
        return (
          <Text key={s.id}>
            <Text inverse={on} bold={on} color={on && prod ? 'red' : undefined} dimColor={!on}>
              {label}
            </Text>{' '}
          </Text>
        );
      })}
    </Text>
  );
}
