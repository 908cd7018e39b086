-- The live nodes' agents report in ($1: their ids).
UPDATE :"schema".fleet_nodes SET last_seen_at = now() WHERE id = ANY($1)
