-- The benchmark's "fresh" state: a freshly loaded database that nothing has
-- vacuumed yet. Left alone, autovacuum would vacuum the new tables during
-- the measurement (it starts on inserted rows too), so it is turned off per
-- table, before the data is generated; autovacuum_reset.sql turns it back
-- on. Runs in the schema the search path names.
DO $$
DECLARE
    t regclass;
BEGIN
    FOR t IN SELECT c.oid::regclass FROM pg_class c
             WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
    LOOP
        EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = off, toast.autovacuum_enabled = off)', t);
    END LOOP;
END;
$$;
