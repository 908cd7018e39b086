-- The whole schema check (pushleft-controller(1), THE DATABASE IT TALKS TO and "What
-- fail-safely checks before it writes") in ONE catalog statement with no
-- parameters, so fail-safely sends it in the same message as the lock that
-- freezes the written tables' triggers and rules (a simple-query message
-- carries no parameters): one JSON document whose sections
-- `db::schema_check` judges.
--
-- The schema is `:'schema'` (rendered by the registry as a quoted
-- literal); the table names and the locking foreign keys below are the
-- ones `db::schema_check` expects (a unit test holds the two lists
-- together).
--
-- tables: every column (and its type as SQL spells it) of each table the
--   tool reads that exists in the schema as a plain or partitioned table.
-- unique_key: deployment_events has UNIQUE (deployment_id, sequence)
--   (fail-safely's max(sequence) + 1 is only race-safe with it; on a
--   partitioned table, the partitioned index).
-- foreign_keys: for each locking key (child.col → parent.id), the matching
--   constraints and whether any of their triggers (their clones' on
--   partitions too) is disabled. (A NOT VALID key is still enforced for
--   new rows: that is enough here.)
-- tree / triggers / rules: the relations, the triggers (with their
--   functions) and the rules of the partition (or inheritance) trees of
--   the protected and the written tables. tgtype bits: 1 row, 2 before,
--   4 insert, 8 delete, 16 update, 32 truncate, 64 instead. tgenabled: O
--   origin, A always, R replica only, D disabled.
-- inventory: the closed world, one row per thing fail-safely cannot vouch
--   for, judged for the role in effect (after --role):
--   kind: a relation of a tree that is not a plain or partitioned table;
--   row_security: row-level security applies to the role (enabled, and the
--     role is no superuser, has no BYPASSRLS, and is not the owner unless
--     FORCE ROW LEVEL SECURITY): rows may be filtered;
--   child_foreign_key: a child without the locking foreign key of its
--     parent: a row inserted into it does not wait for the lock;
--   code: a function outside pg_catalog (directly or as an operator's)
--     that a column default or generated column, a CHECK constraint, a
--     domain constraint of a column's type, or an index expression or
--     predicate of a written table's tree would call during the write;
--   privilege: a column of a table the tool reads that the role may not
--     read (`db::schema_check` keeps those it reads).
WITH RECURSIVE expected AS (
    SELECT * FROM (VALUES ('deployments'), ('deployment_events'), ('jobs'),
                          ('agent_job_results'), ('source_snapshots'), ('release_artifacts'),
                          ('application_instances'), ('fleet_allocations'),
                          ('ingress_analytics_routes'), ('fleet_nodes'),
                          ('network_attachments')) AS t(name)
), roots AS (
    SELECT c.relname::text AS name, c.oid AS relid
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN expected e ON e.name = c.relname::text
    WHERE n.nspname = :'schema' AND c.relkind IN ('r', 'p')
), locking_keys AS (
    SELECT * FROM (VALUES (1, 'jobs', 'deployment_id', 'deployments'),
                          (2, 'application_instances', 'deployment_id', 'deployments'),
                          (3, 'deployment_events', 'deployment_id', 'deployments'),
                          (4, 'agent_job_results', 'job_id', 'jobs')) AS k(n, child, col, parent)
), tree AS (
    SELECT roots.name AS root, roots.relid, 0 AS depth FROM roots
    UNION ALL
    SELECT tree.root, i.inhrelid, tree.depth + 1
    FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid
), checked AS (
    -- The trees whose triggers and rules are checked: the protected and
    -- the written tables.
    SELECT tree.* FROM tree
    WHERE tree.root IN ('deployments', 'deployment_events', 'jobs', 'agent_job_results')
), me AS (
    SELECT r.rolsuper OR r.rolbypassrls AS bypasses
    FROM pg_roles r WHERE r.rolname = current_user
), written AS (
    SELECT tree.* FROM tree WHERE tree.root IN ('deployments', 'deployment_events')
), domains AS (
    -- The domain a written column's type is, and the domains under it.
    SELECT w.root, w.relid, a.attname::text AS col, ty.oid AS typid
    FROM written w
    JOIN pg_attribute a ON a.attrelid = w.relid AND a.attnum > 0 AND NOT a.attisdropped
    JOIN pg_type ty ON ty.oid = a.atttypid AND ty.typtype = 'd'
    UNION ALL
    SELECT d.root, d.relid, d.col, ty.typbasetype
    FROM domains d JOIN pg_type ty ON ty.oid = d.typid
    WHERE ty.typtype = 'd' AND ty.typbasetype <> 0
), code AS (
    SELECT w.root, w.relid,
           CASE WHEN a.attgenerated <> '' THEN 'the generated column '
                ELSE 'the default of column ' END || a.attname::text AS place,
           'pg_attrdef'::regclass AS classid, ad.oid AS objid
    FROM written w
    JOIN pg_attrdef ad ON ad.adrelid = w.relid
    JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
    UNION ALL
    SELECT w.root, w.relid, 'the CHECK constraint ' || c.conname::text,
           'pg_constraint'::regclass, c.oid
    FROM written w JOIN pg_constraint c ON c.conrelid = w.relid AND c.contype = 'c'
    UNION ALL
    SELECT w.root, w.relid, 'the index ' || ic.relname::text,
           'pg_class'::regclass, ix.indexrelid
    FROM written w
    JOIN pg_index ix ON ix.indrelid = w.relid
    JOIN pg_class ic ON ic.oid = ix.indexrelid
    UNION ALL
    SELECT d.root, d.relid,
           'the constraint ' || c.conname::text || ' of the domain of column ' || d.col,
           'pg_constraint'::regclass, c.oid
    FROM domains d JOIN pg_constraint c ON c.contypid = d.typid
), calls AS (
    SELECT code.root, code.relid, code.place, p.oid AS proc
    FROM code
    JOIN pg_depend dep ON dep.classid = code.classid AND dep.objid = code.objid
                      AND dep.refclassid = 'pg_proc'::regclass
    JOIN pg_proc p ON p.oid = dep.refobjid
    UNION ALL
    SELECT code.root, code.relid, code.place, o.oprcode
    FROM code
    JOIN pg_depend dep ON dep.classid = code.classid AND dep.objid = code.objid
                      AND dep.refclassid = 'pg_operator'::regclass
    JOIN pg_operator o ON o.oid = dep.refobjid
), fk AS (
    SELECT k.n, k.child, k.col, k.parent, c.oid, c.conname
    FROM locking_keys k
    JOIN roots child ON child.name = k.child
    JOIN roots parent ON parent.name = k.parent
    JOIN pg_constraint c ON c.contype = 'f' AND c.conrelid = child.relid
                        AND c.confrelid = parent.relid
    WHERE c.conkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                            WHERE a.attrelid = c.conrelid AND a.attname = k.col)]
      AND c.confkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                             WHERE a.attrelid = c.confrelid AND a.attname = 'id')]
), clones AS (
    SELECT fk.oid, fk.oid AS root FROM fk
    UNION ALL
    SELECT c.oid, clones.root FROM pg_constraint c JOIN clones ON c.conparentid = clones.oid
), inventory AS (
    SELECT 'kind' AS what, tree.root, c.relname::text AS relation,
           CASE c.relkind WHEN 'f' THEN 'a foreign table' WHEN 'v' THEN 'a view'
                          WHEN 'm' THEN 'a materialized view' ELSE 'relkind ' || c.relkind::text
           END AS detail, NULL::text AS schema_name, NULL::text AS name
    FROM tree JOIN pg_class c ON c.oid = tree.relid
    WHERE c.relkind NOT IN ('r', 'p')
    UNION ALL
    SELECT 'row_security', tree.root, c.relname::text,
           coalesce((SELECT string_agg(p.polname::text, ', ' ORDER BY p.polname)
                     FROM pg_policy p WHERE p.polrelid = c.oid), '(no policy: every row hidden)')
           || CASE WHEN c.relforcerowsecurity THEN ' (FORCE ROW LEVEL SECURITY)' ELSE '' END,
           NULL, NULL
    FROM tree JOIN pg_class c ON c.oid = tree.relid, me
    WHERE c.relrowsecurity AND NOT me.bypasses
      AND (c.relforcerowsecurity OR NOT pg_has_role(current_user, c.relowner, 'USAGE'))
    UNION ALL
    SELECT 'child_foreign_key', tree.root, c.relname::text,
           k.col || ' → ' || k.parent, NULL, NULL
    FROM tree
    JOIN pg_class c ON c.oid = tree.relid
    JOIN locking_keys k ON k.child = tree.root
    JOIN roots parent ON parent.name = k.parent
    WHERE tree.depth > 0 AND c.relkind = 'r'
      AND NOT EXISTS (
          SELECT 1 FROM pg_constraint fk
          JOIN pg_attribute a ON a.attrelid = fk.conrelid AND a.attname = k.col
          WHERE fk.contype = 'f' AND fk.conrelid = tree.relid
            AND fk.confrelid = parent.relid AND fk.conkey = ARRAY[a.attnum])
    UNION ALL
    SELECT 'code', calls.root, c.relname::text, calls.place,
           n.nspname::text, p.proname::text
    FROM calls
    JOIN pg_class c ON c.oid = calls.relid
    JOIN pg_proc p ON p.oid = calls.proc
    JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname <> 'pg_catalog'
    UNION ALL
    -- A column that is missing is the table check's to report.
    SELECT 'privilege', roots.name, roots.name, a.attname::text, NULL, NULL
    FROM roots
    JOIN pg_attribute a ON a.attrelid = roots.relid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE NOT has_column_privilege(roots.relid, a.attnum, 'SELECT')
)
SELECT json_build_object(
    'tables', (
        SELECT coalesce(json_agg(json_build_object(
                   'table_name', roots.name, 'oid', roots.relid::int8,
                   'column_name', a.attname::text,
                   'type', format_type(a.atttypid, a.atttypmod))
                   ORDER BY roots.name, a.attnum), '[]')
        FROM roots
        LEFT JOIN pg_attribute a ON a.attrelid = roots.relid AND a.attnum > 0
                                 AND NOT a.attisdropped),
    'unique_key', EXISTS (
        SELECT 1 FROM roots r JOIN pg_index i ON i.indrelid = r.relid
        WHERE r.name = 'deployment_events' AND i.indisunique
          AND i.indpred IS NULL AND i.indnkeyatts = 2
          AND (SELECT array_agg(a.attname::text ORDER BY a.attname)
               FROM pg_attribute a
               WHERE a.attrelid = i.indrelid
                 AND a.attnum = ANY (i.indkey::int2[]))
              = ARRAY['deployment_id', 'sequence']),
    'foreign_keys', (
        SELECT coalesce(json_agg(json_build_object(
                   'child', fk.child, 'column', fk.col, 'parent', fk.parent,
                   'name', fk.conname::text,
                   'disabled', EXISTS (
                       SELECT 1 FROM clones JOIN pg_trigger t ON t.tgconstraint = clones.oid
                       WHERE clones.root = fk.oid AND t.tgenabled NOT IN ('O', 'A')))
                   ORDER BY fk.n, fk.conname), '[]')
        FROM fk),
    'tree', (
        SELECT coalesce(json_agg(json_build_object(
                   'root', checked.root, 'relation', c.relname::text,
                   'relkind', c.relkind::text)
                   ORDER BY checked.root, checked.depth, c.relname), '[]')
        FROM checked JOIN pg_class c ON c.oid = checked.relid),
    'triggers', (
        SELECT coalesce(json_agg(json_build_object(
                   'root', checked.root,
                   'relation', c.relname::text,
                   'name', t.tgname::text,
                   'enabled', t.tgenabled::text,
                   'tgtype', t.tgtype::int4,
                   -- Internal: made by the system for a constraint (a
                   -- foreign key's). On PostgreSQL 14 and older, the copy
                   -- of a user's trigger on a partition is marked internal
                   -- too; its parent is not.
                   'internal', t.tgisinternal AND NOT EXISTS (
                       SELECT 1 FROM pg_trigger parent
                       WHERE parent.oid = t.tgparentid AND NOT parent.tgisinternal),
                   'constraint_trigger', t.tgconstraint <> 0,
                   'function', p.oid::regprocedure::text,
                   'builtin', pn.nspname = 'pg_catalog',
                   'language', l.lanname::text,
                   'source', coalesce(p.prosrc, ''))
                   ORDER BY checked.root, c.relname, t.tgname), '[]')
        FROM checked
        JOIN pg_class c ON c.oid = checked.relid
        JOIN pg_trigger t ON t.tgrelid = checked.relid
        JOIN pg_proc p ON p.oid = t.tgfoid
        JOIN pg_namespace pn ON pn.oid = p.pronamespace
        JOIN pg_language l ON l.oid = p.prolang),
    'rules', (
        SELECT coalesce(json_agg(json_build_object(
                   'root', checked.root, 'relation', c.relname::text,
                   'name', r.rulename::text)
                   ORDER BY checked.root, c.relname, r.rulename), '[]')
        FROM checked
        JOIN pg_class c ON c.oid = checked.relid
        JOIN pg_rewrite r ON r.ev_class = checked.relid
        WHERE r.rulename <> '_RETURN'),
    'inventory', (
        SELECT coalesce(json_agg(json_build_object(
                   'what', what, 'root', root, 'relation', relation, 'detail', detail,
                   'schema_name', schema_name, 'name', name)
                   ORDER BY what, root, relation, detail), '[]')
        FROM inventory)
) AS "check"
