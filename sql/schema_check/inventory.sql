-- The closed world fail-safely vouches for (README, "What fail-safely
-- checks before it writes"): every table it reads or writes ($1 names,
-- $2 oids, aligned) and every partition and inheritance child of each,
-- looked at for what could hide a row from its decision or run code
-- inside its statements. One row per thing it cannot vouch for; none when
-- all is well. Judged for the role in effect (after --role). The written
-- tables are $3 (names); the columns it reads are $4 (table) / $5
-- (column), aligned.
--
-- kind: a relation of a tree that is not a plain or partitioned table
--   (a foreign table as a partition, say): its rows are not ours to lock.
-- row_security: row-level security applies to the role on a relation
--   (enabled, and the role is no superuser, has no BYPASSRLS, and is not
--   the owner unless FORCE ROW LEVEL SECURITY): rows may be filtered.
-- child_foreign_key: a child of a table whose foreign key "decide under
--   locks" rests on, without that key: a row inserted into the child does
--   not wait for the deployment's lock.
-- code: a function outside pg_catalog (directly or as an operator's)
--   that a column default or generated column, a CHECK constraint, a
--   domain constraint of a column's type, or an index expression or
--   predicate of a written table's tree would call during the write.
-- privilege: a column the tool reads that the role may not read.
WITH RECURSIVE roots AS (
    SELECT r.name, r.oid::oid AS relid
    FROM unnest($1::text[], $2::int8[]) AS r(name, oid)
), tree AS (
    SELECT roots.name AS root, roots.relid, 0 AS depth FROM roots
    UNION ALL
    SELECT tree.root, i.inhrelid, tree.depth + 1
    FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid
), me AS (
    SELECT r.rolsuper OR r.rolbypassrls AS bypasses
    FROM pg_roles r WHERE r.rolname = current_user
), locking_keys AS (
    SELECT * FROM (VALUES ('jobs', 'deployment_id', 'deployments'),
                          ('application_instances', 'deployment_id', 'deployments'),
                          ('deployment_events', 'deployment_id', 'deployments'),
                          ('agent_job_results', 'job_id', 'jobs')) AS k(child, col, parent)
), written AS (
    SELECT tree.* FROM tree WHERE tree.root = ANY ($3::text[])
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
)
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
SELECT 'privilege', cols.tab, cols.tab, cols.col, NULL, NULL
FROM unnest($4::text[], $5::text[]) AS cols(tab, col)
JOIN roots ON roots.name = cols.tab
-- A column that is missing is the schema check's to report.
JOIN pg_attribute a ON a.attrelid = roots.relid AND a.attname = cols.col
                   AND a.attnum > 0 AND NOT a.attisdropped
WHERE NOT has_column_privilege(roots.relid, a.attnum, 'SELECT')
ORDER BY 1, 2, 3, 4
