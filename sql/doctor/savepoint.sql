-- Trying --role happens inside a savepoint, so a failure leaves the
-- read-only transaction usable for the other checks.
SAVEPOINT doctor_role
