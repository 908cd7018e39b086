-- One round of the reference control plane (sql/control_plane.sql) as the
-- sandbox runs it: the scheduler paused (it is the part that is stuck in
-- every scenario); agents take a few seconds per job, counted from $1 (the
-- simulation's start) for a lease already in flight, so a teardown can be
-- watched completing; the lease reclaimer, the deployments' own progress
-- and health events on.
SELECT control_plane.tick(schedule => false,
                          work => interval '3 seconds',
                          since => $1::timestamptz,
                          reclaim_after => interval '1 minute',
                          progress => true,
                          health_every => interval '1 minute')::text
