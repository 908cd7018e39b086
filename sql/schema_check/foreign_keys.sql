-- The foreign keys "decide under locks" rests on, all in one round trip:
-- for each key k (the n-th elements of $1 the table's oid, $2 its column,
-- $3 the oid of the table whose id it references), the matching foreign
-- key constraints and whether any of their triggers (those of their clones
-- on partitions too) is disabled. Inserting or updating a row that
-- references a locked row waits for it only because the key's trigger
-- takes a KEY SHARE lock on it. (A NOT VALID key is still enforced for new
-- rows: that is enough here.) A key without a constraint has no row.
WITH RECURSIVE wanted AS (
    SELECT k.n, k.child::oid AS child, k.col, k.parent::oid AS parent
    FROM unnest($1::int8[], $2::text[], $3::int8[]) WITH ORDINALITY AS k(child, col, parent, n)
), fk AS (
    SELECT w.n, c.oid, c.conname
    FROM wanted w
    JOIN pg_constraint c ON c.contype = 'f' AND c.conrelid = w.child AND c.confrelid = w.parent
    WHERE c.conkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                            WHERE a.attrelid = c.conrelid AND a.attname = w.col)]
      AND c.confkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                             WHERE a.attrelid = c.confrelid AND a.attname = 'id')]
), clones AS (
    SELECT fk.oid, fk.oid AS root FROM fk
    UNION ALL
    SELECT c.oid, clones.root FROM pg_constraint c JOIN clones ON c.conparentid = clones.oid
)
SELECT fk.n::int8 AS key,
       fk.conname::text AS name,
       EXISTS (SELECT 1 FROM clones JOIN pg_trigger t ON t.tgconstraint = clones.oid
               WHERE clones.root = fk.oid AND t.tgenabled NOT IN ('O', 'A')) AS disabled
FROM fk
ORDER BY fk.n, fk.conname
