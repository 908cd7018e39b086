-- The one instant of a fleet-wide read (the start of its transaction).
SELECT now() AS at
