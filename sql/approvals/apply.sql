-- fail-safely, step 10, first on a database that records plans: the
-- application of this write, in its transaction, before the event ($1 the
-- plan's id or NULL, $2 the deployment, $3 the event's kind, $4 the
-- reason, $5 the OS user the client reports, $6 --break-glass-alone). Its
-- trigger (install.sql) refuses what the policy or the plan does not
-- allow, and stamps who, when and the transaction.
INSERT INTO pushleft_approvals.applications
    (id, plan_id, deployment_id, event_kind, reason, approver_os_user, applied_by,
     self_approved, break_glass_alone, xact, applied_at)
VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, '', false, $6, '0', now())
RETURNING self_approved, applied_by
