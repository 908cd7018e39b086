-- fleet list: every node with its heartbeat age and the capacity in use,
-- in ONE statement: one round trip, one snapshot.
--
-- $1 pool filter (text, NULL = all), $2 status filter (text, NULL = all),
-- $3 only stale nodes (bool), $4 stale after (milliseconds, bigint),
-- $5 the schema's name (to find fleet_allocations' CHECK in the catalog).
--
-- `slots_used` counts the allocations known to hold capacity (reserved,
-- active). An allocation in a status this tool does not know holds it too
-- until it says otherwise; `allocations_checked` says whether the catalog
-- rules that out (the reference schema's CHECK on status, validated, and
-- NOT NULL). When it does not, the caller reads those allocations with
-- sql/fleet/odd_allocations.sql, in a flight of its own right after this
-- one, and counts them.
--
-- Every row also carries the settings the statement ran with and the
-- server (the caller refuses a read made without its pinned search path,
-- with JIT on, with triggers silenced, or outside a read-only transaction);
-- when no node matches there is still one row, its node columns NULL.
-- Ages come from now(): the same instant for every row.
--
-- The counts are one pass each over what is in use, grouped by node, then
-- joined to the nodes: linear in the fleet, whatever its state. (Counting
-- per node with a LATERAL subquery cost 5,000 index probes at 5,000 nodes,
-- each a heap visit on a table autovacuum has not reached yet, and 5,000
-- sequential scans on a schema without the partial indexes.) With the
-- partial indexes fleet_allocations_node_in_use and
-- application_instances_active_node, released allocations and removed
-- instances are never read.
WITH checked AS MATERIALIZED (
    SELECT EXISTS (
               SELECT 1
               FROM pg_catalog.pg_constraint c
               JOIN pg_catalog.pg_class t ON t.oid = c.conrelid
               JOIN pg_catalog.pg_namespace s ON s.oid = t.relnamespace
               WHERE s.nspname = $5::text AND t.relname = 'fleet_allocations'
                 AND c.contype = 'c' AND c.convalidated
                 AND pg_catalog.pg_get_constraintdef(c.oid)
                     = 'CHECK ((status = ANY (ARRAY[''reserved''::text, ''active''::text, ''released''::text])))')
           AND EXISTS (
               SELECT 1
               FROM pg_catalog.pg_attribute a
               JOIN pg_catalog.pg_class t ON t.oid = a.attrelid
               JOIN pg_catalog.pg_namespace s ON s.oid = t.relnamespace
               WHERE s.nspname = $5::text AND t.relname = 'fleet_allocations'
                 AND a.attname = 'status' AND a.attnotnull) AS allocations_checked
), used AS (
    SELECT a.node_id, count(*) AS slots_used
    FROM :"schema".fleet_allocations a
    WHERE a.status IN ('reserved', 'active')
    GROUP BY a.node_id
), hosted AS (
    SELECT i.active_node_id AS node_id, count(*) AS instances
    FROM :"schema".application_instances i
    WHERE i.active_node_id IS NOT NULL AND i.status <> 'removed'
    GROUP BY i.active_node_id
), nodes AS (
    SELECT n.id,
           n.name,
           n.pool,
           n.status,
           n.schedulable,
           n.slots,
           n.last_seen_at,
           floor(extract(epoch FROM now() - n.last_seen_at))::bigint AS heartbeat_age_seconds,
           n.last_seen_at IS NULL
               OR n.last_seen_at < now() - $4::bigint * interval '1 millisecond' AS stale,
           coalesce(used.slots_used, 0) AS slots_used,
           coalesce(hosted.instances, 0) AS instances
    FROM :"schema".fleet_nodes n
    LEFT JOIN used ON used.node_id = n.id
    LEFT JOIN hosted ON hosted.node_id = n.id
    WHERE ($1::text IS NULL OR n.pool = $1::text)
      AND ($2::text IS NULL OR n.status = $2::text)
      AND (NOT $3::bool OR n.last_seen_at IS NULL
           OR n.last_seen_at < now() - $4::bigint * interval '1 millisecond')
)
SELECT :read_settings,
       (SELECT allocations_checked FROM checked) AS allocations_checked,
       nodes.*
FROM (SELECT 1) AS one_row
LEFT JOIN nodes ON true
ORDER BY nodes.pool, nodes.name
