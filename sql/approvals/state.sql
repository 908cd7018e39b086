-- Whether this database records plans (README, "Two-person break-glass"),
-- and its policy: catalogs first, so that a database without the schema
-- answers instead of failing; the policy row is read next (policy.sql),
-- only where the schema is installed. $1: the control plane's schema
-- (where the enforcing trigger would be).
WITH installed AS (
    SELECT to_regclass('pushleft_approvals.policy') IS NOT NULL
           AND to_regclass('pushleft_approvals.plans') IS NOT NULL
           AND to_regclass('pushleft_approvals.applications') IS NOT NULL AS yes
), enforcing AS (
    SELECT EXISTS (
        SELECT 1 FROM pg_trigger t
        JOIN pg_class c ON c.oid = t.tgrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname = 'deployment_events'
          AND t.tgname = 'pushleft_approvals_enforce' AND t.tgenabled <> 'D') AS yes
)
SELECT i.yes AS installed,
       e.yes AS enforcing,
       (SELECT pg_get_userbyid(nspowner)::text FROM pg_namespace
        WHERE nspname = 'pushleft_approvals') AS owner
FROM installed i, enforcing e
