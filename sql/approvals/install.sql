-- `approvals install` (README, "Two-person break-glass"): the tool's own
-- schema, where the server records plans and keeps the policy. Run in one
-- transaction as the role that will own it (the only role that may change
-- or delete a record: the triggers below refuse everyone else, as the
-- reference schema's triggers do for the audit trail). Idempotent: every
-- object is created if missing, every function replaced with this text.
-- No parameters; the control plane's tables are not touched here (the
-- enforcing trigger is sql/approvals/enforce.sql).
--
-- What the server stamps itself, whatever a client sends (BEFORE INSERT
-- triggers): a plan's id, who asked (session_user, the client address),
-- when (now()), its expiry (now() + ttl), the database it belongs to, and
-- the hash of its content; an application's approver (session_user), when,
-- the transaction it belongs to, and whether it was self-approved.
CREATE SCHEMA IF NOT EXISTS pushleft_approvals;
COMMENT ON SCHEMA pushleft_approvals IS
    'pushleft-controller: plans recorded by the server and the two-person policy';

CREATE TABLE IF NOT EXISTS pushleft_approvals.policy (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    require_approval boolean NOT NULL,
    break_glass_alone_allowed boolean NOT NULL,
    enforce boolean NOT NULL,
    changed_by text NOT NULL DEFAULT session_user,
    changed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS pushleft_approvals.plans (
    plan_id text PRIMARY KEY,
    content jsonb NOT NULL,
    content_sha256 text NOT NULL,
    requester_os_user text NOT NULL,
    requested_by text NOT NULL,
    requested_from inet,
    database_name text NOT NULL,
    database_oid oid NOT NULL,
    system_identifier text NOT NULL,
    ttl interval NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS pushleft_approvals.applications (
    id uuid PRIMARY KEY,
    plan_id text REFERENCES pushleft_approvals.plans (plan_id),
    deployment_id uuid NOT NULL,
    event_kind text NOT NULL,
    reason text NOT NULL,
    approver_os_user text NOT NULL,
    applied_by text NOT NULL,
    applied_from inet,
    self_approved boolean NOT NULL,
    break_glass_alone boolean NOT NULL,
    xact xid8 NOT NULL,
    applied_at timestamptz NOT NULL,
    UNIQUE (plan_id, deployment_id)
);
CREATE INDEX IF NOT EXISTS applications_xact ON pushleft_approvals.applications (xact);

-- Records are append-only: only the schema's owner (or a member of it)
-- may change or delete one.
CREATE OR REPLACE FUNCTION pushleft_approvals.refuse_change() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $body$
BEGIN
    IF NOT pg_has_role(current_user,
                       (SELECT nspowner FROM pg_namespace WHERE nspname = 'pushleft_approvals'),
                       'MEMBER') THEN
        RAISE EXCEPTION 'pushleft_approvals: % is append-only; only its owner may change it',
            TG_TABLE_NAME USING ERRCODE = 'PXA03';
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$body$;

CREATE OR REPLACE FUNCTION pushleft_approvals.stamp_plan() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $body$
BEGIN
    IF NEW.ttl IS NULL OR NEW.ttl < interval '1 minute' OR NEW.ttl > interval '7 days' THEN
        RAISE EXCEPTION 'pushleft_approvals: a plan lives 1 minute to 7 days, not %', NEW.ttl
            USING ERRCODE = 'PXA01';
    END IF;
    IF NEW.content -> 'requester' ->> 'session_user' IS DISTINCT FROM session_user::text THEN
        RAISE EXCEPTION 'pushleft_approvals: the plan names requester %, but this session is %',
            NEW.content -> 'requester' ->> 'session_user', session_user USING ERRCODE = 'PXA01';
    END IF;
    NEW.plan_id := 'plan-' || left(replace(gen_random_uuid()::text, '-', ''), 16);
    NEW.requested_by := session_user;
    NEW.requested_from := inet_client_addr();
    NEW.database_name := current_database();
    NEW.database_oid := (SELECT oid FROM pg_database WHERE datname = current_database());
    NEW.system_identifier := (SELECT system_identifier::text FROM pg_control_system());
    NEW.created_at := now();
    NEW.expires_at := now() + NEW.ttl;
    NEW.content_sha256 := encode(sha256(convert_to(NEW.content::text, 'UTF8')), 'hex');
    RETURN NEW;
END
$body$;

-- An application: one deployment written from a plan (or, with no plan,
-- a write the policy allows alone), in the transaction that writes it.
CREATE OR REPLACE FUNCTION pushleft_approvals.stamp_application() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $body$
DECLARE
    rule pushleft_approvals.policy;
    plan pushleft_approvals.plans;
BEGIN
    SELECT * INTO rule FROM pushleft_approvals.policy WHERE singleton;
    NEW.id := gen_random_uuid();
    NEW.applied_by := session_user;
    NEW.applied_from := inet_client_addr();
    NEW.xact := pg_current_xact_id();
    NEW.applied_at := now();
    IF NEW.plan_id IS NULL THEN
        NEW.self_approved := true;
    ELSE
        SELECT * INTO plan FROM pushleft_approvals.plans WHERE plan_id = NEW.plan_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'pushleft_approvals: no plan % is recorded in this database',
                NEW.plan_id USING ERRCODE = 'PXA01';
        END IF;
        IF now() >= plan.expires_at THEN
            RAISE EXCEPTION 'pushleft_approvals: plan % expired at %', plan.plan_id,
                plan.expires_at USING ERRCODE = 'PXA01';
        END IF;
        IF plan.database_oid <> (SELECT oid FROM pg_database WHERE datname = current_database())
           OR plan.database_name <> current_database() THEN
            RAISE EXCEPTION 'pushleft_approvals: plan % was made on database % (OID %)',
                plan.plan_id, plan.database_name, plan.database_oid USING ERRCODE = 'PXA01';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM jsonb_array_elements(plan.content -> 'deployments') d
                       WHERE d ->> 'deployment_id' = NEW.deployment_id::text
                         AND d -> 'event' ->> 'kind' = NEW.event_kind)
           OR plan.content ->> 'reason' IS DISTINCT FROM NEW.reason THEN
            RAISE EXCEPTION 'pushleft_approvals: plan % does not plan % for deployment % with this reason',
                plan.plan_id, NEW.event_kind, NEW.deployment_id USING ERRCODE = 'PXA01';
        END IF;
        NEW.self_approved := plan.requested_by = session_user::text;
    END IF;
    IF NEW.break_glass_alone AND NOT coalesce(rule.break_glass_alone_allowed, true) THEN
        RAISE EXCEPTION 'pushleft_approvals: the policy of this database does not allow --break-glass-alone'
            USING ERRCODE = 'PXA02';
    END IF;
    IF coalesce(rule.require_approval, false) AND NEW.self_approved AND NOT NEW.break_glass_alone THEN
        RAISE EXCEPTION 'pushleft_approvals: the policy of this database requires a plan recorded by another session_user (this session is %)',
            session_user USING ERRCODE = 'PXA02';
    END IF;
    RETURN NEW;
END
$body$;

DROP TRIGGER IF EXISTS plans_stamp ON pushleft_approvals.plans;
CREATE TRIGGER plans_stamp BEFORE INSERT ON pushleft_approvals.plans
    FOR EACH ROW EXECUTE FUNCTION pushleft_approvals.stamp_plan();
DROP TRIGGER IF EXISTS plans_refuse_change ON pushleft_approvals.plans;
CREATE TRIGGER plans_refuse_change BEFORE UPDATE OR DELETE ON pushleft_approvals.plans
    FOR EACH ROW EXECUTE FUNCTION pushleft_approvals.refuse_change();
DROP TRIGGER IF EXISTS plans_refuse_truncate ON pushleft_approvals.plans;
CREATE TRIGGER plans_refuse_truncate BEFORE TRUNCATE ON pushleft_approvals.plans
    FOR EACH STATEMENT EXECUTE FUNCTION pushleft_approvals.refuse_change();
DROP TRIGGER IF EXISTS applications_stamp ON pushleft_approvals.applications;
CREATE TRIGGER applications_stamp BEFORE INSERT ON pushleft_approvals.applications
    FOR EACH ROW EXECUTE FUNCTION pushleft_approvals.stamp_application();
DROP TRIGGER IF EXISTS applications_refuse_change ON pushleft_approvals.applications;
CREATE TRIGGER applications_refuse_change BEFORE UPDATE OR DELETE ON pushleft_approvals.applications
    FOR EACH ROW EXECUTE FUNCTION pushleft_approvals.refuse_change();
DROP TRIGGER IF EXISTS applications_refuse_truncate ON pushleft_approvals.applications;
CREATE TRIGGER applications_refuse_truncate BEFORE TRUNCATE ON pushleft_approvals.applications
    FOR EACH STATEMENT EXECUTE FUNCTION pushleft_approvals.refuse_change();
DROP TRIGGER IF EXISTS policy_refuse_change ON pushleft_approvals.policy;
CREATE TRIGGER policy_refuse_change BEFORE INSERT OR UPDATE OR DELETE ON pushleft_approvals.policy
    FOR EACH ROW EXECUTE FUNCTION pushleft_approvals.refuse_change();
DROP TRIGGER IF EXISTS policy_refuse_truncate ON pushleft_approvals.policy;
CREATE TRIGGER policy_refuse_truncate BEFORE TRUNCATE ON pushleft_approvals.policy
    FOR EACH STATEMENT EXECUTE FUNCTION pushleft_approvals.refuse_change();

-- Every operator records plans and applications as themselves (the
-- triggers stamp who); only the owner changes the policy.
REVOKE ALL ON ALL TABLES IN SCHEMA pushleft_approvals FROM PUBLIC;
GRANT USAGE ON SCHEMA pushleft_approvals TO PUBLIC;
GRANT SELECT ON pushleft_approvals.policy TO PUBLIC;
GRANT SELECT, INSERT ON pushleft_approvals.plans, pushleft_approvals.applications TO PUBLIC;
