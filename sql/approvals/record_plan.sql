-- `fail-safely --plan-out` on a database that records plans: the plan's
-- content ($1), the OS user the client reports ($2) and its lifetime in
-- seconds ($3). The server stamps the rest (install.sql): the id, who
-- asked, from where, when, the expiry, the database and the content's
-- hash, and returns them for the file.
INSERT INTO pushleft_approvals.plans
    (plan_id, content, content_sha256, requester_os_user, requested_by, database_name,
     database_oid, system_identifier, ttl, created_at, expires_at)
VALUES ('', $1, '', $2, '', '', 0, '', $3::int8 * interval '1 second', now(), now())
RETURNING plan_id, content_sha256, requested_by, host(requested_from) AS requested_from,
          database_name, database_oid::int8 AS database_oid, system_identifier,
          created_at, expires_at
