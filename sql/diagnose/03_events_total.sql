-- How many events the trail has (an index-only count on (deployment_id, sequence)).
SELECT count(*) AS events_total
FROM :"schema".deployment_events
WHERE deployment_id = $1
