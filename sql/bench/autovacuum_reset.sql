-- Undoes autovacuum_off.sql: every table of the schema the search path names
-- is autovacuumed again, as the server's settings say.
DO $$
DECLARE
    t regclass;
BEGIN
    FOR t IN SELECT c.oid::regclass FROM pg_class c
             WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
    LOOP
        EXECUTE format('ALTER TABLE %s RESET (autovacuum_enabled, toast.autovacuum_enabled)', t);
    END LOOP;
END;
$$;
