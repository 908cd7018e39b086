-- `approvals install --enforce` (README, "Two-person break-glass"): the
-- database itself refuses an `operator_failed` event, or an operator's
-- `teardown_requested` event (payload `operator: true`), that is not tied
-- to an application recorded in the same transaction for the same
-- deployment, kind and reason — whatever wrote it, psql included. The
-- application's own trigger (install.sql) holds it to the policy and to
-- the plan. A constraint trigger, deferred: it fires at COMMIT (or at SET
-- CONSTRAINTS … IMMEDIATE), so the application may come before or after
-- the event in the transaction, and deferring it further never skips it.
-- fail-safely vouches for this trigger on the table it writes only while
-- its function's body is exactly the one below (db::approvals).
CREATE OR REPLACE FUNCTION pushleft_approvals.enforce_plan() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $body$
BEGIN
    IF (NEW.kind = 'operator_failed'
        OR (NEW.kind = 'teardown_requested' AND NEW.payload ->> 'operator' = 'true'))
       AND NOT EXISTS (SELECT 1 FROM pushleft_approvals.applications a
                       WHERE a.xact = pg_current_xact_id()
                         AND a.deployment_id = NEW.deployment_id
                         AND a.event_kind = NEW.kind
                         AND a.reason IS NOT DISTINCT FROM NEW.payload ->> 'reason') THEN
        RAISE EXCEPTION 'pushleft_approvals: a % event for deployment % needs a plan applied in the same transaction (the policy of this database, approvals install --enforce)',
            NEW.kind, NEW.deployment_id USING ERRCODE = 'PXA02';
    END IF;
    RETURN NULL;
END
$body$;
DROP TRIGGER IF EXISTS pushleft_approvals_enforce ON :"schema".deployment_events;
CREATE CONSTRAINT TRIGGER pushleft_approvals_enforce
    AFTER INSERT ON :"schema".deployment_events
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION pushleft_approvals.enforce_plan();
