-- `approvals install` without --enforce: the enforcing trigger of
-- enforce.sql removed from the control plane's events table (the
-- function stays, unused).
DROP TRIGGER IF EXISTS pushleft_approvals_enforce ON :"schema".deployment_events
