/**
 * `pdesk chat send | reply | mark-read | close | threads | show | assign | unassign`: C1 send to the practice system,
 * C3 send to the portal, C2 mark read, C4 close; `threads` and `show` read the desk's store (the local files, or the
 * team store) only; `assign` and `unassign` change a thread's owner there. Every write is recorded in the desk's store
 * after the server acknowledged it (2xx) and before success is printed; a reply is checked against what changed first.
 */
import type { Command } from 'commander';
import { command, subcommand } from '../../help.js';
import type { Needs } from '../../required.js';
import { verb } from '../../verb.js';

/** What `chat send` and `chat reply` need without `--body`. */
const MESSAGE: Needs = {
  all: ['--thread', '--text', '--sender', '--recipient', '--subject'],
  unless: ['--body'],
  hint: '(or give a complete Communication with --body)',
};

function messageOptions(cmd: Command, withAttachment: boolean): Command {
  cmd
    .option('--thread <encounterId>', 'the chat thread: its encounter id (required unless --body)')
    .option('--text <text>', 'the message text (required unless --body)')
    .option('--sender <ref>', 'sender reference, e.g. Patient/pat-1 (required unless --body)')
    .option('--recipient <ref>', 'recipient reference, e.g. PractitionerRole/1001 (required unless --body)')
    .option('--subject <ref>', 'subject reference, e.g. Patient/pat-1 (required unless --body)')
    .option('--topic <text>', 'topic text');
  if (withAttachment) cmd.option('--attachment <contentType:title>', 'attachment description, split at the first ":"');
  return cmd
    .option('--id <id>', 'message id (default: a new UUID)')
    .option('--body <file|->', 'a complete Communication to send as is after validation (no other option needed)');
}

export function chatCommand(): Command {
  const cmd = command(
    'chat',
    "chat threads (C1 send, C2 mark read, C3 reply, C4 close; threads, show and owners from the desk's store)",
    'pdesk chat threads',
    'pdesk chat show enc-100',
    "pdesk chat send --thread enc-100 --text 'Thank you' --sender Patient/pat-1 \\",
    '  --recipient PractitionerRole/1001 --subject Patient/pat-1',
  );

  messageOptions(
    subcommand(
      cmd,
      'send',
      'send a message, portal → practice (C1)',
      "pdesk chat send --thread enc-100 --text 'Thank you' --sender Patient/pat-1 \\",
      '  --recipient PractitionerRole/1001 --subject Patient/pat-1',
      "pdesk chat send --thread enc-100 --text 'My referral letter' \\",
      '  --sender Patient/pat-1 --recipient PractitionerRole/1001 \\',
      "  --subject Patient/pat-1 --attachment 'application/pdf:Referral letter'",
    ),
    true,
  ).action(verb(() => import('./send.js'), MESSAGE));

  messageOptions(
    subcommand(
      cmd,
      'reply',
      'send a message, practice → portal (C3), held if the thread changed since you saw it',
      "pdesk chat reply --thread enc-100 --text 'Your results are in.' \\",
      '  --sender PractitionerRole/1001 --recipient Patient/pat-1 \\',
      "  --subject Patient/pat-1 --topic 'Lab results'",
      "pdesk chat reply --thread enc-100 --after 17 --force --text 'On it.' \\",
      '  --sender PractitionerRole/1001 --recipient Patient/pat-1 \\',
      '  --subject Patient/pat-1',
    ),
    false,
  )
    .option('--after <seq>', 'the point you saw the thread at (default: what chat show printed last, else its newest message now)')
    .option('--force', 'reply although another operator owns the thread (it stays theirs)')
    .action(verb(() => import('./reply.js'), MESSAGE));

  subcommand(
    cmd,
    'mark-read',
    'mark a received message as read (C2)',
    'pdesk chat mark-read b58f5f42-a022-4c1c-9560-f7148b872596',
    'pdesk chat mark-read b58f5f42-a022-4c1c-9560-f7148b872596 \\',
    "  --at 'today 09:30'",
  )
    .argument('<communicationId>', 'id of the Communication to mark')
    .option('--at <datetime>', 'when it was read (ISO 8601, today, +Nd…; default now), sent as local time without offset')
    .option('--body <file|->', 'a complete read marker (JSON Patch) to send as is after validation')
    .action(verb(() => import('./mark-read.js')));

  subcommand(cmd, 'close', 'close a chat thread (C4)', 'pdesk chat close enc-100')
    .argument('<encounterId>', 'the thread to close: its encounter id')
    .option('--body <file|->', 'a complete Encounter to send as is after validation')
    .action(verb(() => import('./close.js')));

  subcommand(
    cmd,
    'threads',
    "the threads of the desk's store with their owners, newest first (no request)",
    'pdesk chat threads',
    'pdesk chat threads --unassigned',
    'pdesk chat threads --mine --query "[?unread > `0`].thread"',
  )
    .option('--mine', 'only the threads you own')
    .option('--unassigned', 'only the threads nobody owns')
    .option('--all', 'every thread (the default)')
    .action(verb(() => import('./threads.js')));

  subcommand(
    cmd,
    'show',
    "a thread's messages from the desk's store (no request); notes the point you saw it at",
    'pdesk chat show enc-100',
    'pdesk chat show enc-100 --json',
  )
    .argument('<encounterId>', 'the thread: its encounter id')
    .action(verb(() => import('./show.js')));

  subcommand(
    cmd,
    'assign',
    "make a thread yours, or another operator's (no request)",
    'pdesk chat assign enc-100',
    'pdesk chat assign enc-100 --to alice',
    'pdesk chat assign enc-100 --to alice --force',
  )
    .argument('<encounterId>', 'the thread: its encounter id')
    .option('--to <operator>', 'the new owner (default: you)')
    .option('--force', 'take the thread from another operator who owns it')
    .action(verb(() => import('./assign.js')));

  subcommand(cmd, 'unassign', 'leave a thread to nobody (no request)', 'pdesk chat unassign enc-100', 'pdesk chat unassign enc-100 --force')
    .argument('<encounterId>', 'the thread: its encounter id')
    .option('--force', 'unassign a thread another operator owns')
    .action(verb(() => import('./unassign.js')));

  return cmd;
}
