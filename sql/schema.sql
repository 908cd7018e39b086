-- Reference schema of the control plane's PostgreSQL database.
--
-- pushleft-controller is a client of an existing database; this file is the
-- shape it relies on (pushleft-controller(1), THE DATABASE IT TALKS TO). The sandbox, the
-- tests and the benchmarks load it. It loads into an empty database with
--   psql -v ON_ERROR_STOP=1 -f sql/schema.sql
-- and from Rust through include_str!.

BEGIN;

CREATE TABLE fleet_nodes (
    id           uuid PRIMARY KEY,
    name         text NOT NULL UNIQUE,
    pool         text NOT NULL,
    status       text NOT NULL CHECK (status IN ('online', 'draining', 'offline')),
    schedulable  boolean NOT NULL DEFAULT true,
    slots        int NOT NULL CHECK (slots >= 0),
    last_seen_at timestamptz
);
-- `fleet list` sorts by pool then name.
CREATE INDEX fleet_nodes_pool_name ON fleet_nodes (pool, name);

CREATE TABLE deployments (
    id         uuid PRIMARY KEY,
    org_id     uuid NOT NULL,
    status     text NOT NULL CHECK (status IN ('queued', 'building', 'deploying', 'running',
                                               'failed', 'teardown_queued', 'destroyed')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
-- The stuck scan only ever looks at in-flight deployments, a tiny fraction of
-- the table; a partial index keeps it from reading the history.
CREATE INDEX deployments_in_flight ON deployments (created_at)
    WHERE status IN ('queued', 'building', 'deploying');

CREATE TABLE deployment_events (
    sequence      bigint NOT NULL CHECK (sequence > 0),
    id            uuid PRIMARY KEY,
    org_id        uuid NOT NULL,
    deployment_id uuid NOT NULL REFERENCES deployments (id),
    kind          text NOT NULL,
    payload       jsonb NOT NULL DEFAULT '{}'::jsonb,
    occurred_at   timestamptz NOT NULL DEFAULT now(),
    -- Also the index behind "the trail of one deployment", "its last event"
    -- and max(sequence) + 1.
    CONSTRAINT deployment_events_deployment_sequence UNIQUE (deployment_id, sequence)
);
-- `history`: the operators' actions, newest first.
CREATE INDEX deployment_events_operator_actions ON deployment_events (occurred_at)
    WHERE kind IN ('operator_failed', 'teardown_requested');
-- Idempotent replay of fail-safely looks its own event up by key.
CREATE INDEX deployment_events_idempotency_key ON deployment_events ((payload ->> 'idempotency_key'))
    WHERE payload ? 'idempotency_key';

CREATE TABLE jobs (
    id               uuid PRIMARY KEY,
    deployment_id    uuid NOT NULL REFERENCES deployments (id),
    kind             text NOT NULL CHECK (kind IN ('build', 'deploy', 'teardown')),
    status           text NOT NULL CHECK (status IN ('queued', 'leased', 'succeeded', 'failed', 'cancelled')),
    target_node_id   uuid REFERENCES fleet_nodes (id),
    attempt          int NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    max_attempts     int NOT NULL DEFAULT 3 CHECK (max_attempts > 0),
    available_at     timestamptz NOT NULL DEFAULT now(),
    lease_token      uuid,
    lease_expires_at timestamptz,
    payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_deployment ON jobs (deployment_id, created_at);
-- job_lease_orphaned: leased jobs by expiry.
CREATE INDEX jobs_leased_expiry ON jobs (lease_expires_at) WHERE status = 'leased';
CREATE INDEX jobs_target_node ON jobs (target_node_id) WHERE target_node_id IS NOT NULL;

CREATE TABLE agent_job_results (
    id          uuid PRIMARY KEY,
    job_id      uuid NOT NULL REFERENCES jobs (id),
    node_id     uuid NOT NULL REFERENCES fleet_nodes (id),
    attempt     int NOT NULL,
    lease_token uuid NOT NULL,
    outcome     text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
    output      jsonb NOT NULL DEFAULT '{}'::jsonb,
    reported_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_job_results_job ON agent_job_results (job_id, reported_at);

CREATE TABLE source_snapshots (
    id            uuid PRIMARY KEY,
    deployment_id uuid NOT NULL REFERENCES deployments (id),
    verified_at   timestamptz
);
CREATE INDEX source_snapshots_deployment ON source_snapshots (deployment_id);

CREATE TABLE release_artifacts (
    id            uuid PRIMARY KEY,
    deployment_id uuid NOT NULL REFERENCES deployments (id),
    image         text NOT NULL
);
CREATE INDEX release_artifacts_deployment ON release_artifacts (deployment_id);

CREATE TABLE application_instances (
    id             uuid PRIMARY KEY,
    deployment_id  uuid NOT NULL REFERENCES deployments (id),
    role_name      text NOT NULL,
    status         text NOT NULL CHECK (status IN ('pending', 'starting', 'running', 'stopping', 'removed')),
    active_node_id uuid REFERENCES fleet_nodes (id),
    generation     int NOT NULL DEFAULT 1
);
CREATE INDEX application_instances_deployment ON application_instances (deployment_id);
-- `fleet list` counts the instances a node hosts.
CREATE INDEX application_instances_active_node ON application_instances (active_node_id)
    WHERE active_node_id IS NOT NULL AND status <> 'removed';

CREATE TABLE fleet_allocations (
    id            uuid PRIMARY KEY,
    node_id       uuid NOT NULL REFERENCES fleet_nodes (id),
    resource_kind text NOT NULL CHECK (resource_kind IN ('application_instance')),
    resource_id   uuid NOT NULL,
    status        text NOT NULL CHECK (status IN ('reserved', 'active', 'released')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    released_at   timestamptz
);
CREATE INDEX fleet_allocations_resource ON fleet_allocations (resource_id);
-- `fleet list` counts the slots in use per node.
CREATE INDEX fleet_allocations_node_in_use ON fleet_allocations (node_id)
    WHERE status IN ('reserved', 'active');

CREATE TABLE ingress_analytics_routes (
    hostname         text NOT NULL,
    deployment_id    uuid NOT NULL REFERENCES deployments (id),
    route_generation int NOT NULL,
    status           text NOT NULL CHECK (status IN ('active', 'removing', 'removed')),
    PRIMARY KEY (deployment_id, hostname, route_generation)
);

CREATE TABLE network_attachments (
    id            uuid PRIMARY KEY,
    deployment_id uuid NOT NULL REFERENCES deployments (id),
    segment       text NOT NULL,
    node_id       uuid REFERENCES fleet_nodes (id),
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX network_attachments_deployment ON network_attachments (deployment_id);
CREATE INDEX network_attachments_segment ON network_attachments (segment);

-- The audit trail is protected by the database itself, not by good manners:
-- events and results are append-only, and jobs are never deleted.
CREATE FUNCTION refuse_audit_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % is refused: it is part of the audit trail (%)',
        TG_OP, TG_TABLE_NAME, TG_ARGV[0]
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'Append a new row instead; the history of a deployment is never rewritten.';
END;
$$;

CREATE TRIGGER deployment_events_refuse_delete BEFORE DELETE ON deployment_events
    FOR EACH ROW EXECUTE FUNCTION refuse_audit_change('deployment events are append-only');
CREATE TRIGGER deployment_events_refuse_update BEFORE UPDATE ON deployment_events
    FOR EACH ROW EXECUTE FUNCTION refuse_audit_change('deployment events are append-only');
CREATE TRIGGER deployment_events_refuse_truncate BEFORE TRUNCATE ON deployment_events
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change('deployment events are append-only');

CREATE TRIGGER jobs_refuse_delete BEFORE DELETE ON jobs
    FOR EACH ROW EXECUTE FUNCTION refuse_audit_change('jobs are never deleted');
CREATE TRIGGER jobs_refuse_truncate BEFORE TRUNCATE ON jobs
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change('jobs are never deleted');

CREATE TRIGGER agent_job_results_refuse_delete BEFORE DELETE ON agent_job_results
    FOR EACH ROW EXECUTE FUNCTION refuse_audit_change('agent results are append-only');
CREATE TRIGGER agent_job_results_refuse_update BEFORE UPDATE ON agent_job_results
    FOR EACH ROW EXECUTE FUNCTION refuse_audit_change('agent results are append-only');
CREATE TRIGGER agent_job_results_refuse_truncate BEFORE TRUNCATE ON agent_job_results
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change('agent results are append-only');

COMMIT;
