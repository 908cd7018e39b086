-- One round of the reference control plane (sql/control_plane.sql), with the
-- scheduler paused: it is the part that is stuck in every scenario.
SELECT control_plane.tick(schedule => false)::text
