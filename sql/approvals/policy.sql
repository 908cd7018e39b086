-- The policy of a database that records plans (after state.sql found the
-- schema): whether a write needs a plan applied by another session_user,
-- whether --break-glass-alone is allowed, and whether --enforce was asked.
SELECT require_approval, break_glass_alone_allowed, enforce, changed_by, changed_at
FROM pushleft_approvals.policy
WHERE singleton
