-- Resolves a deployment id or id prefix: the prefix is turned into the
-- inclusive range [$1, $2] of UUIDs it covers, so this is an index range scan.
SELECT id
FROM :"schema".deployments
WHERE id BETWEEN $1 AND $2
ORDER BY id
LIMIT 11
