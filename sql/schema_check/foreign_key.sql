-- The foreign key from a column ($2) of a table ($1: its oid) to the id of
-- another ($3: its oid), and whether any of its triggers (those of its
-- clones on partitions too) is disabled. "Decide under locks" rests on
-- them: inserting or updating a row that references a locked row waits
-- for it only because the key's trigger takes a KEY SHARE lock on it.
-- (A NOT VALID key is still enforced for new rows: that is enough here.)
WITH RECURSIVE fk AS (
    SELECT c.oid, c.conname
    FROM pg_constraint c
    WHERE c.contype = 'f' AND c.conrelid = $1::int8::oid AND c.confrelid = $3::int8::oid
      AND c.conkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                            WHERE a.attrelid = c.conrelid AND a.attname = $2::text)]
      AND c.confkey = ARRAY[(SELECT a.attnum FROM pg_attribute a
                             WHERE a.attrelid = c.confrelid AND a.attname = 'id')]
), clones AS (
    SELECT fk.oid, fk.oid AS root FROM fk
    UNION ALL
    SELECT c.oid, clones.root FROM pg_constraint c JOIN clones ON c.conparentid = clones.oid
)
SELECT fk.conname::text AS name,
       EXISTS (SELECT 1 FROM clones JOIN pg_trigger t ON t.tgconstraint = clones.oid
               WHERE clones.root = fk.oid AND t.tgenabled NOT IN ('O', 'A')) AS disabled
FROM fk
ORDER BY fk.conname
