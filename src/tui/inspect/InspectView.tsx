/** What is being inspected, drawn in the screen's place: every step mounted (an X-ray keeps its place under a raw view), the top one shown. */
import { Box } from 'ink';
import type { Inspect } from './context.js';
import { RawView } from './RawView.js';
import { XrayView } from './XrayView.js';

export function InspectView({ inspect, width, height }: { inspect: Inspect; width: number; height: number }) {
  const { steps } = inspect;
  return (
    <>
      {steps.map((s, i) => {
        const top = i === steps.length - 1;
        return (
          <Box key={`${i}:${s.kind}`} display={top ? 'flex' : 'none'} flexDirection="column" height={height} overflowY="hidden">
            {s.kind === 'raw' ? (
              <RawView item={s.item} width={width} height={height} exportDir={inspect.exportDir} active={top} onBack={inspect.back} />
            ) : (
              <XrayView subject={s.subject} inspect={inspect} width={width} height={height} active={top} />
            )}
          </Box>
        );
      })}
    </>
  );
}
