-- fleet list: every node with its heartbeat age and the capacity in use.
--
-- $1 pool filter (text, NULL = all), $2 status filter (text, NULL = all),
-- $3 only stale nodes (bool), $4 stale after (milliseconds, bigint).
--
-- Ages come from now(), the start of the caller's transaction: the same
-- instant for every row and for the snapshot the caller reports.
--
-- Per node, LATERAL counts walk the partial indexes
-- fleet_allocations_node_in_use and application_instances_active_node (one
-- small index range per node) instead of joining and grouping every
-- allocation ever made: the filters on fleet_nodes apply first, and released
-- allocations and removed instances are never read.
SELECT n.id,
       n.name,
       n.pool,
       n.status,
       n.schedulable,
       n.slots,
       n.last_seen_at,
       floor(extract(epoch FROM now() - n.last_seen_at))::bigint AS heartbeat_age_seconds,
       stale.stale,
       used.slots_used,
       hosted.instances
FROM :"schema".fleet_nodes n
CROSS JOIN LATERAL (
    SELECT n.last_seen_at IS NULL
           OR n.last_seen_at < now() - $4::bigint * interval '1 millisecond' AS stale
) stale
CROSS JOIN LATERAL (
    SELECT count(*) AS slots_used
    FROM :"schema".fleet_allocations a
    WHERE a.node_id = n.id AND a.status IN ('reserved', 'active')
) used
CROSS JOIN LATERAL (
    SELECT count(*) AS instances
    FROM :"schema".application_instances i
    WHERE i.active_node_id = n.id AND i.status <> 'removed'
) hosted
WHERE ($1::text IS NULL OR n.pool = $1::text)
  AND ($2::text IS NULL OR n.status = $2::text)
  AND (NOT $3::bool OR n.last_seen_at IS NULL
       OR n.last_seen_at < now() - $4::bigint * interval '1 millisecond')
ORDER BY n.pool, n.name
