-- Step 5: serialize on the idempotency key before looking it up, so two
-- runs with the same key (for the same deployment or not) never both find
-- nothing and both write. A transaction-level advisory lock on a hash of
-- the key ($1: the tool's class, $2: the hash), released at COMMIT or
-- ROLLBACK; it waits at most lock_timeout.
SELECT pg_advisory_xact_lock($1::int4, $2::int4)
