-- The scenarios scenarios.sql loaded, in the order the banner shows them.
SELECT deployment_id, name, problem, try_command
FROM sandbox.scenarios
ORDER BY position
