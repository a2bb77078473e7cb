import { Confirm } from '../components/Confirm.js';
import type { WriteQuestion } from '../desk.js';
import { clean, jsonLines } from '../format.js';

/** A write the desk's client holds until the operator confirms it (a key that sends without a review of its own). */
export function QuestionView({ q, width, height }: { q: WriteQuestion; width: number; height: number }) {
  return (
    <Confirm
      question={clean(`Send ${q.what} to ${q.target}?`)}
      lines={q.body === undefined ? [] : jsonLines(q.body)}
      yesLabel="send it"
      danger
      onYes={() => q.answer(true)}
      onNo={() => q.answer(false)}
      width={width}
      height={height}
    />
  );
}
