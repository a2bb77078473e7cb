/**
 * The team store's schema, as versioned migrations applied in order (src/core/store/pg/migrate.ts). They ship inside
 * the build as text (nothing is read from src/ at run time). A migration is never edited once released: a change is
 * a new migration. Every object lives in the `pdesk` schema; every row is keyed by the profile's name (one team
 * store may serve several practice systems, each a profile every operator names alike: docs/decisions.md §17).
 *
 * Tables:
 * - threads          one row per chat thread (encounter id): open/closed, its owner, and the summary the thread
 *                    list shows (message and unread counts, newest message), kept by the store in the transaction
 *                    that changes it, so listing 10,000 threads reads 10,000 rows and no messages. `rev` is taken
 *                    from one sequence at every change of the thread (subscribers and the poll fall-back read it).
 *                    `replying_*` is a reply in flight: claimed in the transaction that checked the thread, so a
 *                    second operator's reply is held while the first one is being sent.
 * - messages         every chat message (C1, C3) sent or received, once per Communication id (a repeated push is
 *                    stored once); `seq` orders arrival, the point a reply form was opened at; `operator` is who
 *                    sent it (received messages have none). Received pushes are folded in here and in the tables
 *                    below (read_markers, threads.close_*, notifications) with `via = 'received'`.
 * - read_markers     C2 read markers, the first per message id (as the file store keeps them).
 * - notifications    C5 notifications sent or received; a notification with an id is stored once.
 * - assignments      every change of a thread's owner: who took or gave it, when, and why.
 * - audit            the write audit trail: a row is written before the request is sent (outcome `unknown`) and
 *                    completed with the status or the error once there is one; a row still `unknown` is a request
 *                    whose outcome nobody learnt (a crash, a lost connection).
 * - presence         who has which thread open, per TUI session, with the time of its last heartbeat.
 *
 * Version 2 gives audit records the key the desk that began them gave them (the same as in a file trail they are
 * imported from), the id a create's answer named, and the state `ahead` (a bulk row's record written before its
 * turn, which counts only once started); and import keys to what has no id of its own (notifications without one,
 * changes of owner), so `pdesk store import` copies each once.
 *
 * Version 3 lets a message be `pending`: written before its request leaves (after its audit row), settled to `sent`
 * once the server acknowledged it, removed when the server refused it; one left pending has an unknown outcome (the
 * desk died, or the server answered 5xx or not at all), as in the file store (docs/decisions.md §6, §17).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'team desk: threads, messages, read markers, notifications, assignments, audit, presence',
    sql: `
create sequence pdesk.rev;

create table pdesk.threads (
  profile text not null,
  thread text not null,
  status text not null default 'open' check (status in ('open', 'closed')),
  closed_at timestamptz,
  close_via text check (close_via in ('sent', 'received')),
  close_operator text,
  close_resource json,
  owner text,
  assigned_at timestamptz,
  messages integer not null default 0,
  unread integer not null default 0,
  last_seq bigint not null default 0,
  last_at timestamptz,
  last_text text,
  last_from text check (last_from in ('portal', 'practice')),
  sort_at timestamptz,
  replying_operator text,
  replying_session text,
  replying_since timestamptz,
  replying_until timestamptz,
  rev bigint not null default nextval('pdesk.rev'),
  primary key (profile, thread)
);
create index threads_by_time on pdesk.threads (profile, sort_at desc nulls last, thread);
create index threads_by_owner on pdesk.threads (profile, owner, sort_at desc nulls last, thread);
create index threads_unassigned on pdesk.threads (profile, sort_at desc nulls last, thread) where owner is null;
create index threads_by_rev on pdesk.threads (profile, rev);

create table pdesk.messages (
  seq bigint generated always as identity unique,
  profile text not null,
  id text not null,
  thread text not null,
  op text not null check (op in ('C1', 'C3')),
  via text not null check (via in ('sent', 'received')),
  at timestamptz not null,
  operator text,
  text text not null,
  resource json not null,
  stored_at timestamptz not null default now(),
  primary key (profile, id),
  foreign key (profile, thread) references pdesk.threads (profile, thread)
);
create index messages_by_thread on pdesk.messages (profile, thread, at, seq);

create table pdesk.read_markers (
  profile text not null,
  id text not null,
  thread text,
  read_at text not null,
  via text not null check (via in ('sent', 'received')),
  at timestamptz not null,
  operator text,
  resource json not null,
  primary key (profile, id)
);

create table pdesk.notifications (
  seq bigint generated always as identity primary key,
  profile text not null,
  id text,
  via text not null check (via in ('sent', 'received')),
  at timestamptz not null,
  operator text,
  resource json not null
);
create unique index notifications_once on pdesk.notifications (profile, id) where id is not null;
create index notifications_by_time on pdesk.notifications (profile, seq);

create table pdesk.assignments (
  seq bigint generated always as identity primary key,
  profile text not null,
  thread text not null,
  owner text,
  previous text,
  by_operator text not null,
  reason text not null check (reason in ('assign', 'unassign', 'first-reply')),
  at timestamptz not null default now(),
  foreign key (profile, thread) references pdesk.threads (profile, thread)
);
create index assignments_by_thread on pdesk.assignments (profile, thread, seq);

create table pdesk.audit (
  id bigint generated always as identity primary key,
  profile text not null,
  environment text,
  operator text not null,
  at timestamptz not null,
  op text,
  method text not null,
  url text not null,
  outcome text not null default 'unknown' check (outcome in ('unknown', 'answered', 'no-answer')),
  status integer,
  error json,
  ms double precision,
  body_sha256 text,
  body json,
  completed_at timestamptz
);
create index audit_by_time on pdesk.audit (profile, at, id);

create table pdesk.presence (
  profile text not null,
  thread text not null,
  session text not null,
  operator text not null,
  seen_at timestamptz not null default now(),
  primary key (profile, thread, session)
);
create index presence_by_time on pdesk.presence (seen_at);

-- A thread's summary from its messages and read markers, and a new rev; called in the transaction that changed
-- them, with the thread's row locked. Returns the new rev.
create function pdesk.refresh_thread(p_profile text, p_thread text) returns bigint language sql as $fn$
  update pdesk.threads t set
    messages = s.messages,
    unread = s.unread,
    last_seq = s.last_seq,
    last_at = l.at,
    last_text = l.text,
    last_from = case l.op when 'C1' then 'portal' when 'C3' then 'practice' end,
    sort_at = coalesce(l.at, t.closed_at),
    rev = nextval('pdesk.rev')
  from (
    select count(*)::integer as messages,
           (count(*) filter (where m.via = 'received' and r.id is null))::integer as unread,
           coalesce(max(m.seq), 0) as last_seq
    from pdesk.messages m
    left join pdesk.read_markers r on r.profile = m.profile and r.id = m.id
    where m.profile = p_profile and m.thread = p_thread
  ) s
  left join lateral (
    select m.at, m.text, m.op from pdesk.messages m
    where m.profile = p_profile and m.thread = p_thread
    order by m.at desc, m.seq desc limit 1
  ) l on true
  where t.profile = p_profile and t.thread = p_thread
  returning t.rev
$fn$;
`,
  },
  {
    version: 2,
    name: 'audit keys and created ids, bulk rows written ahead; import keys for notifications and owners',
    sql: `
alter table pdesk.audit add column key text, add column created text;
create unique index audit_by_key on pdesk.audit (profile, key) where key is not null;
alter table pdesk.audit drop constraint audit_outcome_check;
alter table pdesk.audit add constraint audit_outcome_check check (outcome in ('ahead', 'unknown', 'answered', 'no-answer'));

alter table pdesk.notifications add column import_key text;
create unique index notifications_imported on pdesk.notifications (profile, import_key) where import_key is not null;

alter table pdesk.assignments add column import_key text;
create unique index assignments_imported on pdesk.assignments (profile, import_key) where import_key is not null;
`,
  },
  {
    version: 3,
    name: 'messages written ahead as pending, settled when the server answered',
    sql: `
alter table pdesk.messages drop constraint messages_via_check;
alter table pdesk.messages add constraint messages_via_check check (via in ('sent', 'received', 'pending'));
`,
  },
];

/** The newest schema version this pdesk knows. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
