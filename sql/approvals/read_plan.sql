-- `fail-safely --apply`: the server's copy of a plan ($1 its id), how many
-- of its deployments were applied, and the server's now() to judge its
-- expiry by.
SELECT p.plan_id, p.content, p.content_sha256, p.requester_os_user, p.requested_by,
       host(p.requested_from) AS requested_from, p.database_name,
       p.database_oid::int8 AS database_oid, p.system_identifier, p.created_at, p.expires_at,
       (SELECT count(*) FROM pushleft_approvals.applications a WHERE a.plan_id = p.plan_id)
           AS applied,
       now() AS now
FROM pushleft_approvals.plans p
WHERE p.plan_id = $1
