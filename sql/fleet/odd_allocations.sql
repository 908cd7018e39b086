-- fleet list: the allocations in a status this tool does not know (or
-- NULL), which hold capacity until they say otherwise. Run only when
-- sql/fleet/list.sql finds that the catalog does not rule them out (no
-- validated CHECK on fleet_allocations.status as in the reference schema,
-- or no NOT NULL), in a read-only flight of its own right after the list's
-- (a second round trip, on such a schema only). Without an index on status it
-- reads the whole table: the price of a schema that lets any value in.
SELECT a.id, a.node_id, a.status
FROM :"schema".fleet_allocations a
WHERE a.status IS NULL OR a.status NOT IN ('reserved', 'active', 'released')
ORDER BY a.node_id, a.id
