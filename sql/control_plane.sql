-- A reference model of the control plane, for the tests and the sandbox.
--
-- NOT part of the reference schema (schema.sql) and never loaded into a real
-- control plane's database: it lives in a schema of its own, `control_plane`,
-- and models just enough of the scheduler, the gateway, the agents and the
-- teardown driver to show what the break-glass paths set in motion, with the
-- same row locks the real components take:
--
--   deployment row first (FOR SHARE to read its status, FOR UPDATE to change
--   it or append an event), then its jobs, instances and allocations.
--
-- fail-safely locks the deployment FOR UPDATE, so nothing here can commit
-- between its decision and its write, and everything here sees its result.
--
-- The functions (all in schema control_plane):
--
--   heartbeat(node uuid) RETURNS void
--   schedule_job(job uuid, node uuid) RETURNS boolean         -- targeted?
--   lease_job(job uuid, node uuid, ttl interval) RETURNS uuid -- token, NULL = refused
--   report_result(job uuid, node uuid, token uuid, outcome text, output jsonb)
--       RETURNS boolean                                       -- accepted?
--   drive_teardown(deployment uuid) RETURNS text              -- its status afterwards
--   drive_teardown() RETURNS int                              -- deployments driven
--   reap_unstarted_application(deployment uuid) RETURNS int   -- reservations released
--   tick(schedule, lease_ttl, work, since, reclaim_after, progress, health_every)
--       RETURNS jsonb                                         -- what one round did
--
--   reclaim_expired_leases(grace interval) RETURNS int         -- leases reclaimed
--   progress(deployment uuid, job_kind text) RETURNS void       -- build/deploy done
--   report_health(every interval) RETURNS int                   -- health events
--
-- tick's defaults keep the model the tests step through (instant agents, no
-- reclaimer, no progress); the sandbox's --simulate turns the rest on.
-- Deliberately left out: placement of new instances. Loads with
--   psql -v ON_ERROR_STOP=1 -f sql/control_plane.sql
-- after schema.sql, and may be loaded again (it replaces its functions).

BEGIN;

CREATE SCHEMA IF NOT EXISTS control_plane;

-- Agents only run on nodes whose heartbeat is at most this old.
CREATE OR REPLACE FUNCTION control_plane.fresh_after() RETURNS interval
LANGUAGE sql IMMUTABLE AS $$ SELECT interval '2 minutes' $$;

-- Appends an event with sequence = max + 1. The caller holds the deployment
-- row FOR UPDATE, which makes max + 1 safe.
CREATE OR REPLACE FUNCTION control_plane.append_event(dep uuid, event_kind text, event_payload jsonb)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    next_sequence bigint;
BEGIN
    SELECT coalesce(max(sequence), 0) + 1 INTO next_sequence
    FROM deployment_events WHERE deployment_id = dep;
    INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload)
    SELECT next_sequence, gen_random_uuid(), d.org_id, d.id, event_kind, event_payload
    FROM deployments d WHERE d.id = dep;
    RETURN next_sequence;
END;
$$;

-- An agent says it is alive.
CREATE OR REPLACE FUNCTION control_plane.heartbeat(node uuid) RETURNS void
LANGUAGE sql AS $$
    UPDATE fleet_nodes SET last_seen_at = now() WHERE id = node;
$$;

-- Scheduler admission: targets a queued, untargeted build or deploy job at
-- an online, schedulable node, only while its deployment is live (queued,
-- building, deploying, running). Returns whether it targeted the job.
CREATE OR REPLACE FUNCTION control_plane.schedule_job(job uuid, node uuid) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    dep_status text;
    j jobs%ROWTYPE;
BEGIN
    -- Deployment first, FOR SHARE: a status change (fail-safely's FOR
    -- UPDATE, or any UPDATE) waits for us, and we wait for it.
    SELECT d.status INTO dep_status
    FROM deployments d
    WHERE d.id = (SELECT deployment_id FROM jobs WHERE id = job)
    FOR SHARE;
    IF dep_status IS NULL OR dep_status NOT IN ('queued', 'building', 'deploying', 'running') THEN
        RETURN false;
    END IF;
    SELECT * INTO j FROM jobs WHERE id = job FOR UPDATE;
    IF j.status <> 'queued' OR j.target_node_id IS NOT NULL OR j.kind = 'teardown' THEN
        RETURN false;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM fleet_nodes n
                   WHERE n.id = node AND n.status = 'online' AND n.schedulable) THEN
        RETURN false;
    END IF;
    UPDATE jobs SET target_node_id = node, updated_at = now() WHERE id = job;
    RETURN true;
END;
$$;

-- The gateway: hands the job's target node a lease. Refused (NULL) unless
-- the job is queued, targeted at this node, available and has attempts
-- left, and its deployment still wants it run: build and deploy jobs only
-- while the deployment is live, teardown jobs only while it is
-- teardown_queued. So a failed or destroyed deployment gets no lease at all.
CREATE OR REPLACE FUNCTION control_plane.lease_job(job uuid, node uuid, ttl interval) RETURNS uuid
LANGUAGE plpgsql AS $$
DECLARE
    dep_status text;
    j jobs%ROWTYPE;
    token uuid := gen_random_uuid();
BEGIN
    SELECT d.status INTO dep_status
    FROM deployments d
    WHERE d.id = (SELECT deployment_id FROM jobs WHERE id = job)
    FOR SHARE;
    SELECT * INTO j FROM jobs WHERE id = job FOR UPDATE;
    IF NOT FOUND OR j.status <> 'queued' OR j.target_node_id IS DISTINCT FROM node
       OR j.available_at > now() OR j.attempt >= j.max_attempts THEN
        RETURN NULL;
    END IF;
    IF (j.kind = 'teardown' AND dep_status <> 'teardown_queued')
       OR (j.kind <> 'teardown' AND dep_status NOT IN ('queued', 'building', 'deploying', 'running')) THEN
        RETURN NULL;
    END IF;
    UPDATE jobs
    SET status = 'leased', lease_token = token, lease_expires_at = now() + ttl,
        attempt = attempt + 1, updated_at = now()
    WHERE id = job;
    RETURN token;
END;
$$;

-- An agent reports. Accepted only from the job's target node with the
-- job's current lease token (the fence): a stale token, a finished job or
-- another node is refused (false) and writes nothing. An accepted result is
-- recorded, the lease cleared, and the job finished (or queued again after
-- a failure while attempts are left). An accepted teardown success removes
-- its instance and releases the instance's allocations.
CREATE OR REPLACE FUNCTION control_plane.report_result(job uuid, node uuid, token uuid,
                                                       outcome text, output jsonb)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    j jobs%ROWTYPE;
    instance uuid;
BEGIN
    IF outcome NOT IN ('succeeded', 'failed') THEN
        RAISE EXCEPTION 'outcome must be succeeded or failed, not %', outcome;
    END IF;
    PERFORM 1 FROM deployments d
    WHERE d.id = (SELECT deployment_id FROM jobs WHERE id = job)
    FOR SHARE;
    SELECT * INTO j FROM jobs WHERE id = job FOR UPDATE;
    IF NOT FOUND OR j.status <> 'leased' OR j.lease_token IS DISTINCT FROM token
       OR j.target_node_id IS DISTINCT FROM node THEN
        RETURN false;
    END IF;
    INSERT INTO agent_job_results (id, job_id, node_id, attempt, lease_token, outcome, output)
    VALUES (gen_random_uuid(), job, node, j.attempt, token, outcome, coalesce(output, '{}'::jsonb));
    UPDATE jobs
    SET status = CASE
                     WHEN outcome = 'succeeded' THEN 'succeeded'
                     WHEN attempt < max_attempts THEN 'queued'
                     ELSE 'failed'
                 END,
        lease_token = NULL, lease_expires_at = NULL,
        payload = CASE WHEN outcome = 'failed'
                       THEN payload || jsonb_build_object('last_error', coalesce(output ->> 'error', 'failed'))
                       ELSE payload END,
        updated_at = now()
    WHERE id = job;
    IF j.kind = 'teardown' AND outcome = 'succeeded' THEN
        -- The job's instance (payload instance_id); a teardown job without
        -- one (queued by an older driver) covers the deployment's instances
        -- on its node.
        FOR instance IN
            UPDATE application_instances i SET status = 'removed'
            WHERE i.deployment_id = j.deployment_id AND i.status <> 'removed'
              AND CASE WHEN j.payload ? 'instance_id'
                       THEN i.id = (j.payload ->> 'instance_id')::uuid
                       ELSE i.active_node_id = j.target_node_id END
            RETURNING i.id
        LOOP
            UPDATE fleet_allocations SET status = 'released', released_at = now()
            WHERE resource_kind = 'application_instance' AND resource_id = instance
              AND status IN ('reserved', 'active');
        END LOOP;
    END IF;
    RETURN true;
END;
$$;

-- The teardown driver for one deployment in teardown_queued: queues one
-- teardown job per non-removed instance, targeted at the instance's
-- active_node_id (once per instance: never a second job for an instance).
-- An instance that was never placed on a node has nothing to stop: it is
-- removed and its reservation released right away. When every instance is
-- removed, the deployment becomes destroyed, with an event. Returns the
-- deployment's status afterwards.
CREATE OR REPLACE FUNCTION control_plane.drive_teardown(dep uuid) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    dep_status text;
    queued int;
BEGIN
    SELECT status INTO dep_status FROM deployments WHERE id = dep FOR UPDATE;
    IF dep_status IS DISTINCT FROM 'teardown_queued' THEN
        RETURN dep_status;
    END IF;
    PERFORM 1 FROM application_instances WHERE deployment_id = dep ORDER BY id FOR UPDATE;

    WITH unplaced AS (
        UPDATE application_instances SET status = 'removed'
        WHERE deployment_id = dep AND status <> 'removed' AND active_node_id IS NULL
        RETURNING id
    )
    UPDATE fleet_allocations SET status = 'released', released_at = now()
    WHERE resource_kind = 'application_instance' AND resource_id IN (SELECT id FROM unplaced)
      AND status IN ('reserved', 'active');

    INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, max_attempts, payload)
    SELECT gen_random_uuid(), dep, 'teardown', 'queued', i.active_node_id, 5,
           jsonb_build_object('instance_id', i.id)
    FROM application_instances i
    WHERE i.deployment_id = dep AND i.status <> 'removed'
      AND NOT EXISTS (SELECT 1 FROM jobs t
                      WHERE t.deployment_id = dep AND t.kind = 'teardown'
                        AND CASE WHEN t.payload ? 'instance_id'
                                 THEN t.payload ->> 'instance_id' = i.id::text
                                 ELSE t.target_node_id = i.active_node_id END)
    ORDER BY i.id;
    GET DIAGNOSTICS queued = ROW_COUNT;
    IF queued > 0 THEN
        PERFORM control_plane.append_event(dep, 'teardown_jobs_queued',
            jsonb_build_object('by', 'control-plane', 'jobs', queued));
    END IF;

    IF NOT EXISTS (SELECT 1 FROM application_instances
                   WHERE deployment_id = dep AND status <> 'removed') THEN
        UPDATE deployments SET status = 'destroyed', updated_at = now() WHERE id = dep;
        PERFORM control_plane.append_event(dep, 'destroyed', jsonb_build_object('by', 'control-plane'));
        RETURN 'destroyed';
    END IF;
    RETURN dep_status;
END;
$$;

-- Drives every deployment in teardown_queued; returns how many it looked at.
CREATE OR REPLACE FUNCTION control_plane.drive_teardown() RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    dep uuid;
    n int := 0;
BEGIN
    FOR dep IN SELECT id FROM deployments WHERE status = 'teardown_queued' ORDER BY id LOOP
        PERFORM control_plane.drive_teardown(dep);
        n := n + 1;
    END LOOP;
    RETURN n;
END;
$$;

-- The reaper: for a failed deployment, releases the reservations (status
-- reserved: never dispatched) of its instances, unless a network attachment
-- exists for it. Returns how many it released.
CREATE OR REPLACE FUNCTION control_plane.reap_unstarted_application(dep uuid) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    dep_status text;
    released int;
BEGIN
    SELECT status INTO dep_status FROM deployments WHERE id = dep FOR SHARE;
    IF dep_status IS DISTINCT FROM 'failed' THEN
        RETURN 0;
    END IF;
    IF EXISTS (SELECT 1 FROM network_attachments WHERE deployment_id = dep) THEN
        RETURN 0;
    END IF;
    UPDATE fleet_allocations a SET status = 'released', released_at = now()
    FROM application_instances i
    WHERE i.deployment_id = dep AND a.resource_kind = 'application_instance'
      AND a.resource_id = i.id AND a.status = 'reserved';
    GET DIAGNOSTICS released = ROW_COUNT;
    RETURN released;
END;
$$;

-- The lease reclaimer: a job still leased whose lease expired more than
-- `grace` ago goes back to queued (attempts left) or failed, its lease
-- cleared, as the real reclaimer does. Its deployment's row is read FOR
-- SHARE first, like every writer of jobs here. Returns how many it reclaimed.
CREATE OR REPLACE FUNCTION control_plane.reclaim_expired_leases(grace interval) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    n int := 0;
BEGIN
    FOR r IN
        SELECT j.id, j.deployment_id FROM jobs j
        WHERE j.status = 'leased' AND j.lease_expires_at < now() - grace
        ORDER BY j.lease_expires_at, j.id
    LOOP
        PERFORM 1 FROM deployments WHERE id = r.deployment_id FOR SHARE;
        UPDATE jobs
        SET status = CASE WHEN attempt < max_attempts THEN 'queued' ELSE 'failed' END,
            lease_token = NULL, lease_expires_at = NULL,
            payload = payload || jsonb_build_object('last_error', 'lease expired; reclaimed'),
            updated_at = now()
        WHERE id = r.id AND status = 'leased' AND lease_expires_at < now() - grace;
        IF FOUND THEN
            n := n + 1;
        END IF;
    END LOOP;
    RETURN n;
END;
$$;

-- A deployment's own progress once its job succeeded: a build moves it from
-- building to deploying, a deploy from deploying to running, each with an
-- event. Called by tick (when asked to) after an accepted result.
CREATE OR REPLACE FUNCTION control_plane.progress(dep uuid, job_kind text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    dep_status text;
BEGIN
    SELECT status INTO dep_status FROM deployments WHERE id = dep FOR UPDATE;
    IF job_kind = 'build' AND dep_status = 'building' THEN
        UPDATE deployments SET status = 'deploying', updated_at = now() WHERE id = dep;
        PERFORM control_plane.append_event(dep, 'build_succeeded', jsonb_build_object('by', 'control-plane'));
    ELSIF job_kind = 'deploy' AND dep_status = 'deploying' THEN
        UPDATE deployments SET status = 'running', updated_at = now() WHERE id = dep;
        PERFORM control_plane.append_event(dep, 'running', jsonb_build_object('by', 'control-plane'));
    END IF;
END;
$$;

-- Healthy running deployments report in: a `health_check_passed` event for
-- each running deployment whose live instances all run on fresh nodes and
-- whose last event is older than `every`. Returns how many reported.
CREATE OR REPLACE FUNCTION control_plane.report_health(every interval) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    dep uuid;
    n int := 0;
BEGIN
    FOR dep IN
        SELECT d.id FROM deployments d
        WHERE d.status = 'running'
          AND NOT EXISTS (SELECT 1 FROM application_instances i
                          LEFT JOIN fleet_nodes f ON f.id = i.active_node_id
                          WHERE i.deployment_id = d.id AND i.status <> 'removed'
                            AND (f.id IS NULL OR f.last_seen_at < now() - control_plane.fresh_after()))
          AND coalesce((SELECT max(e.occurred_at) FROM deployment_events e
                        WHERE e.deployment_id = d.id), '-infinity') < now() - every
        ORDER BY d.id
    LOOP
        PERFORM control_plane.append_event(dep, 'health_check_passed',
                                           jsonb_build_object('by', 'control-plane'));
        n := n + 1;
    END LOOP;
    RETURN n;
END;
$$;

-- One round of the control plane: the scheduler (unless schedule is false),
-- the agents on fresh nodes, the teardown driver, the reaper; and, when
-- asked, the lease reclaimer (reclaim_after), the deployments' own progress
-- and health events (progress, health_every). An agent reports a job once
-- it has worked on it for `work` since it leased it (or since `since`,
-- whichever is later: a simulation that starts with a lease in flight gives
-- its agent that long too). The defaults are the model the tests step
-- through: instant agents, nothing else.
DROP FUNCTION IF EXISTS control_plane.tick(boolean, interval);
CREATE OR REPLACE FUNCTION control_plane.tick(schedule boolean DEFAULT true,
                                              lease_ttl interval DEFAULT '30 seconds',
                                              work interval DEFAULT '0 seconds',
                                              since timestamptz DEFAULT '-infinity',
                                              reclaim_after interval DEFAULT NULL,
                                              progress boolean DEFAULT false,
                                              health_every interval DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    node uuid;
    token uuid;
    scheduled int := 0;
    ran int := 0;
    reclaimed int := 0;
    teardowns int;
    reaped int := 0;
    healthy int := 0;
BEGIN
    IF reclaim_after IS NOT NULL THEN
        reclaimed := control_plane.reclaim_expired_leases(reclaim_after);
    END IF;
    IF schedule THEN
        FOR r IN
            SELECT j.id, j.kind FROM jobs j JOIN deployments d ON d.id = j.deployment_id
            WHERE j.status = 'queued' AND j.target_node_id IS NULL AND j.kind <> 'teardown'
              AND j.available_at <= now()
              AND d.status IN ('queued', 'building', 'deploying', 'running')
            ORDER BY j.created_at, j.id
        LOOP
            SELECT n.id INTO node
            FROM fleet_nodes n
            CROSS JOIN LATERAL (SELECT count(*) AS used FROM fleet_allocations a
                                WHERE a.node_id = n.id AND a.status IN ('reserved', 'active')) u
            WHERE n.status = 'online' AND n.schedulable
              AND n.last_seen_at >= now() - control_plane.fresh_after()
            ORDER BY u.used, n.name
            LIMIT 1;
            IF node IS NOT NULL AND control_plane.schedule_job(r.id, node) THEN
                scheduled := scheduled + 1;
            END IF;
        END LOOP;
    END IF;

    FOR r IN
        SELECT j.id, j.deployment_id, j.kind, j.target_node_id, j.status, j.lease_token, j.updated_at
        FROM jobs j JOIN fleet_nodes n ON n.id = j.target_node_id
        WHERE n.last_seen_at >= now() - control_plane.fresh_after()
          AND ((j.status = 'queued' AND j.available_at <= now())
               OR (j.status = 'leased' AND j.lease_expires_at > now()))
        ORDER BY j.created_at, j.id
    LOOP
        IF r.status = 'queued' THEN
            token := control_plane.lease_job(r.id, r.target_node_id, lease_ttl);
            -- A job that takes time is reported in a later round.
            CONTINUE WHEN work > interval '0 seconds';
        ELSIF now() < greatest(r.updated_at, since) + work THEN
            CONTINUE;
        ELSE
            token := r.lease_token;
        END IF;
        IF token IS NOT NULL AND control_plane.report_result(
               r.id, r.target_node_id, token, 'succeeded',
               jsonb_build_object('by', 'simulated agent')) THEN
            ran := ran + 1;
            IF progress THEN
                PERFORM control_plane.progress(r.deployment_id, r.kind);
            END IF;
        END IF;
    END LOOP;

    teardowns := control_plane.drive_teardown();

    FOR r IN
        SELECT DISTINCT d.id
        FROM deployments d
        JOIN application_instances i ON i.deployment_id = d.id
        JOIN fleet_allocations a ON a.resource_id = i.id AND a.status = 'reserved'
        WHERE d.status = 'failed'
        ORDER BY d.id
    LOOP
        reaped := reaped + control_plane.reap_unstarted_application(r.id);
    END LOOP;

    IF health_every IS NOT NULL THEN
        healthy := control_plane.report_health(health_every);
    END IF;

    RETURN jsonb_build_object('scheduled', scheduled, 'ran', ran, 'reclaimed', reclaimed,
                              'teardowns', teardowns, 'reaped', reaped, 'healthy', healthy);
END;
$$;

COMMIT;
