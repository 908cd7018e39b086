-- Step 4: serialize on the idempotency key before looking it up (step 6),
-- so two runs with the same key (for the same deployment or not) never
-- both find nothing and both write. A transaction-level advisory lock on a
-- hash of the key, released at COMMIT or ROLLBACK; it waits at most
-- lock_timeout. It travels in step 4's simple-query message, which carries
-- no parameters: the placeholders are rendered by db::transition from the
-- two whole numbers the tool computes (the tool's class and the first 32
-- bits of the key's SHA-256), never from text.
SELECT pg_advisory_xact_lock(:key_class, :key_hash)
