-- diagnose: everything the runbook's eleven queries read about one
-- deployment, in ONE statement, so it costs one round trip and sees one
-- snapshot (a statement never sees a change that commits while it runs).
-- fail-safely runs it too, after locking the deployment, its jobs and its
-- instances (sql/fail_safely/0[5-7]_lock_*.sql), to decide from.
--
-- $1, $2: the inclusive range of ids the operator's id or prefix covers
-- (a full id: $1 = $2); $3: keep only the last N events (NULL: all).
--
-- Always one row. `candidates` lists up to 11 ids in the range; only when
-- there is exactly one are the sections read, so an unknown or ambiguous
-- id costs no more than the lookup. The events come as one array per
-- column (event_*, in no particular order but the same in each: a long
-- trail travels as typed binary arrays, not as text); every other section as a JSON array of rows (NULL
-- when empty) in a column named <section>_rows. It is sent in one flight
-- with its transaction's first message, which pins the settings
-- (sql/session/begin.sql), and its COMMIT; what is in force is checked
-- before its row is looked at, and the settings it ran with come back
-- with the data for the report.
--
-- The text the control plane stores without bound (a job's last_error, an
-- event's payload, an agent's output; pushleft-controller-diagnose(1), HUGE TEXT) is read cut:
-- its first :text_cut characters (left() counts characters, so no
-- character is split), its full length in bytes (<column>_length) and
-- whether it was cut (<column>_cut), so a 50 MB value never crosses the
-- wire. Each value is computed once, in a LATERAL subquery that OFFSET 0
-- keeps from being inlined (inlined, a 50 MB payload would be read three
-- times). Payloads and outputs come as JSON text: whole when not cut.
--
-- Each section is one of the runbook's queries on an index: the lookups by
-- deployment_id use the indexes named in src/db/doctor/indexes.rs. The
-- events come newest first from deployment_events_deployment_sequence (the
-- last N without reading the rest). The deployment's jobs and instances are
-- read once and reused by the sections that join them (results,
-- allocations, nodes): on a schema without those indexes each of their
-- tables is scanned once, not once per section.
WITH candidates AS (
    SELECT id FROM :"schema".deployments WHERE id BETWEEN $1 AND $2 ORDER BY id LIMIT 11
), target AS MATERIALIZED (
    SELECT id FROM candidates WHERE (SELECT count(*) FROM candidates) = 1
), events AS MATERIALIZED (
    SELECT e.sequence, e.id, e.kind, e.occurred_at,
           left(p.text, :text_cut) AS payload,
           octet_length(p.text)::bigint AS payload_length,
           length(p.text) > :text_cut AS payload_cut
    FROM :"schema".deployment_events e
    CROSS JOIN LATERAL (SELECT (e.payload - 'log')::text AS text OFFSET 0) p
    WHERE e.deployment_id = (SELECT id FROM target)
    ORDER BY e.sequence DESC
    LIMIT $3
), jobs_of AS MATERIALIZED (
    SELECT j.id, j.kind, j.status, j.target_node_id, j.attempt, j.max_attempts,
           j.available_at, j.lease_expires_at,
           left(x.last_error, :text_cut) AS last_error,
           octet_length(x.last_error)::bigint AS last_error_length,
           length(x.last_error) > :text_cut AS last_error_cut,
           j.lease_token IS NOT NULL AS has_lease_token, j.created_at, j.updated_at
    FROM :"schema".jobs j
    CROSS JOIN LATERAL (SELECT j.payload ->> 'last_error' AS last_error OFFSET 0) x
    WHERE j.deployment_id = (SELECT id FROM target)
), instances_of AS MATERIALIZED (
    SELECT id, role_name, status, active_node_id, generation
    FROM :"schema".application_instances
    WHERE deployment_id = (SELECT id FROM target)
), results_of AS MATERIALIZED (
    SELECT r.id, r.job_id, r.reported_at, j.kind, r.node_id, r.attempt, r.outcome,
           left(o.text, :text_cut) AS output,
           octet_length(o.text)::bigint AS output_length,
           length(o.text) > :text_cut AS output_cut
    FROM :"schema".agent_job_results r
    JOIN jobs_of j ON j.id = r.job_id
    CROSS JOIN LATERAL (SELECT (r.output - 'log')::text AS text OFFSET 0) o
), allocations_of AS MATERIALIZED (
    SELECT a.id, a.node_id, a.resource_kind, a.resource_id, a.status, a.created_at, a.released_at
    FROM :"schema".fleet_allocations a
    JOIN instances_of i ON i.id = a.resource_id
    WHERE a.resource_kind = 'application_instance'
)
SELECT :read_settings,
       coalesce((SELECT array_agg(id ORDER BY id) FROM candidates), '{}') AS candidates,
       (SELECT json_agg(x)
        FROM (SELECT id, org_id, status, created_at, updated_at
              FROM :"schema".deployments
              WHERE id = (SELECT id FROM target)) x) AS deployment_rows,
       trail.event_sequences,
       trail.event_ids,
       trail.event_kinds,
       trail.event_times,
       trail.event_payloads,
       trail.event_payload_lengths,
       trail.event_payload_cuts,
       CASE WHEN $3 IS NOT NULL THEN
           (SELECT count(*) FROM :"schema".deployment_events
            WHERE deployment_id = (SELECT id FROM target))
       END AS events_total,
       (SELECT json_agg(x ORDER BY x.created_at, x.id) FROM jobs_of x) AS jobs_rows,
       (SELECT json_agg(x ORDER BY x.reported_at, x.id) FROM results_of x) AS results_rows,
       (SELECT json_agg(x ORDER BY x.id)
        FROM (SELECT id, verified_at FROM :"schema".source_snapshots
              WHERE deployment_id = (SELECT id FROM target)) x) AS source_snapshots_rows,
       (SELECT json_agg(x ORDER BY x.id)
        FROM (SELECT id, image FROM :"schema".release_artifacts
              WHERE deployment_id = (SELECT id FROM target)) x) AS release_artifacts_rows,
       (SELECT json_agg(x ORDER BY x.role_name, x.id) FROM instances_of x) AS instances_rows,
       (SELECT json_agg(x ORDER BY x.created_at, x.id) FROM allocations_of x) AS allocations_rows,
       (SELECT json_agg(x ORDER BY x.hostname, x.route_generation)
        FROM (SELECT hostname, route_generation, status
              FROM :"schema".ingress_analytics_routes
              WHERE deployment_id = (SELECT id FROM target)) x) AS routes_rows,
       (SELECT json_agg(x ORDER BY x.created_at, x.id)
        FROM (SELECT id, segment, node_id, created_at
              FROM :"schema".network_attachments
              WHERE deployment_id = (SELECT id FROM target)) x) AS network_attachments_rows,
       (SELECT json_agg(x ORDER BY x.pool, x.name)
        FROM (SELECT id, name, pool, status, schedulable, slots, last_seen_at,
                     floor(extract(epoch FROM now() - last_seen_at))::bigint AS heartbeat_age_seconds
              FROM :"schema".fleet_nodes
              WHERE id IN (SELECT target_node_id FROM jobs_of
                           UNION SELECT active_node_id FROM instances_of
                           UNION SELECT node_id FROM allocations_of
                           UNION SELECT node_id FROM results_of)) x) AS nodes_rows
-- The events' columns, aggregated in one pass: one aggregate node feeds
-- every row to all seven arrays, so the n-th elements are one event's (the
-- caller orders them by sequence; sorting five arrays here cost more than
-- the rest of the statement).
FROM (SELECT array_agg(sequence) AS event_sequences,
             array_agg(id) AS event_ids,
             array_agg(kind) AS event_kinds,
             array_agg(occurred_at) AS event_times,
             array_agg(payload) AS event_payloads,
             array_agg(payload_length) AS event_payload_lengths,
             array_agg(payload_cut) AS event_payload_cuts
      FROM events) AS trail
