-- history: what operators did — every operator_failed / teardown_requested
-- event with the audit fail-safely writes (events typed by hand in psql
-- have no audit: those columns are NULL), and the deployment's status now.
-- Newest first. Walks the partial index deployment_events_operator_actions
-- (occurred_at) backwards, or the trail of one deployment.
--   $1 since (timestamptz) / $2 since, ms ago (bigint): at or after
--   $3 until (timestamptz) / $4 until, ms ago (bigint): before
--   $5 operator: the OS user, session_user or current_user of the audit
--   $6 reason contains (case-insensitive)
--   $7 deployment id
--   $8 at most this many rows
--   $9 self-approved (boolean): an applied plan whose requester approved
--      it, a write with --break-glass-alone (audit.self_approved), and
--      every write no second person approved: without a plan, or typed
--      by hand (no audit.self_approved at all)
-- The reason comes cut: its first :text_cut characters, its length in
-- bytes and whether it was cut. A NULL filter is no filter. The approval columns are NULL for a write
-- without a plan and for events typed by hand.
SELECT e.occurred_at,
       e.deployment_id,
       e.org_id,
       e.sequence,
       e.id AS event_id,
       e.kind,
       left(r.text, :text_cut) AS reason,
       octet_length(r.text)::bigint AS reason_length,
       length(r.text) > :text_cut AS reason_cut,
       e.payload ->> 'idempotency_key' AS idempotency_key,
       e.payload -> 'audit' ->> 'os_user' AS os_user,
       e.payload -> 'audit' ->> 'session_user' AS session_user,
       e.payload -> 'audit' ->> 'current_user' AS current_user,
       e.payload -> 'audit' ->> 'host' AS host,
       e.payload -> 'audit' ->> 'tool' AS tool,
       e.payload -> 'audit' ->> 'previous_status' AS previous_status,
       e.payload -> 'audit' ->> 'plan_id' AS plan_id,
       e.payload -> 'audit' -> 'requester' ->> 'os_user' AS requester_os_user,
       e.payload -> 'audit' -> 'requester' ->> 'session_user' AS requester_session_user,
       e.payload -> 'audit' -> 'approver' ->> 'os_user' AS approver_os_user,
       e.payload -> 'audit' -> 'approver' ->> 'session_user' AS approver_session_user,
       (e.payload -> 'audit' -> 'self_approved') = 'true'::jsonb AS self_approved,
       (e.payload -> 'audit' -> 'break_glass_alone') = 'true'::jsonb AS break_glass_alone,
       d.status AS status_now
FROM :"schema".deployment_events e
-- The reason is text without bound when typed by hand (README, "Huge
-- text"): read cut, computed once (OFFSET 0 keeps it from being inlined).
CROSS JOIN LATERAL (SELECT e.payload ->> 'reason' AS text OFFSET 0) r
-- LEFT: an event whose deployment_id is NULL (the reference schema says
-- NOT NULL) is still listed, with its status now unknown.
LEFT JOIN :"schema".deployments d ON d.id = e.deployment_id
WHERE e.kind IN ('operator_failed', 'teardown_requested')
  AND ($1::timestamptz IS NULL OR e.occurred_at >= $1::timestamptz)
  AND ($2::bigint IS NULL OR e.occurred_at >= now() - $2::bigint * interval '1 millisecond')
  AND ($3::timestamptz IS NULL OR e.occurred_at < $3::timestamptz)
  AND ($4::bigint IS NULL OR e.occurred_at < now() - $4::bigint * interval '1 millisecond')
  AND ($5::text IS NULL
       OR $5::text IN (e.payload -> 'audit' ->> 'os_user',
                       e.payload -> 'audit' ->> 'session_user',
                       e.payload -> 'audit' ->> 'current_user'))
  AND ($6::text IS NULL OR strpos(lower(e.payload ->> 'reason'), lower($6::text)) > 0)
  AND ($7::uuid IS NULL OR e.deployment_id = $7::uuid)
  AND ($9::boolean IS NULL
       OR coalesce((e.payload -> 'audit' -> 'self_approved') = 'true'::jsonb, true) = $9::boolean)
ORDER BY e.occurred_at DESC, e.sequence DESC
LIMIT $8
