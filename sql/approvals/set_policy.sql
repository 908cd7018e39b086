-- `approvals install`, after install.sql, in its transaction: the policy
-- as asked ($1 --require-approval, $2 break-glass-alone allowed, $3
-- --enforce), and what it was before (NULLs on a first install).
WITH before AS (
    SELECT require_approval, break_glass_alone_allowed, enforce
    FROM pushleft_approvals.policy WHERE singleton
), upsert AS (
    INSERT INTO pushleft_approvals.policy (singleton, require_approval, break_glass_alone_allowed, enforce)
    VALUES (true, $1, $2, $3)
    ON CONFLICT (singleton) DO UPDATE
        SET require_approval = EXCLUDED.require_approval,
            break_glass_alone_allowed = EXCLUDED.break_glass_alone_allowed,
            enforce = EXCLUDED.enforce,
            changed_by = session_user,
            changed_at = now()
    RETURNING require_approval, break_glass_alone_allowed, enforce
)
SELECT b.require_approval AS was_require_approval,
       b.break_glass_alone_allowed AS was_break_glass_alone_allowed,
       b.enforce AS was_enforce,
       u.require_approval, u.break_glass_alone_allowed, u.enforce
FROM upsert u LEFT JOIN before b ON true
