-- Whether the index $2 exists in the control plane's schema $1 (by name:
-- the reference schema's names, which doctor prints with their definition).
SELECT EXISTS (SELECT 1
               FROM pg_class c
               JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = $1 AND c.relname = $2
                 AND c.relkind IN ('i', 'I')) AS present
